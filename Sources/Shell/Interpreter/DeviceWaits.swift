import Connectors
import Foundation
import MediaManager
import POSIX
import TerminalKit

/// Ctrl-C during a wait on the device: opening a camera and reading its file list end within about a
/// second whatever the device does (a camera that hangs, a link that went quiet), as fetch and capture do.
extension Interpreter {
    /// Runs `body` (requests to the camera of `session`) so that Ctrl-C ends it: between requests the
    /// session stays open; a request the device does not answer is ended by closing the camera, and the
    /// message says so. Throws `Interrupted` then.
    func interruptibly<T>(_ session: MediaSession, _ body: () throws -> T) throws -> T {
        let interrupt = self.interrupt
        do {
            return try session.camera.interruptibly(cancellation: interrupt.cancellation, body)
        } catch CameraInterruption.betweenRequests {
            throw Interrupted()
        } catch CameraInterruption.connectionClosed {
            guard media === session else { throw Interrupted(detail: "the camera was not answering") }
            closeCamera()
            throw Interrupted(detail: "the camera was not answering, so it is closed now ('open \(session.url)' reconnects)")
        }
    }

    /// Opens `url` so that Ctrl-C during any wait of opening (connecting, the handshake, OpenSession,
    /// GetDeviceInfo) returns at once with `Interrupted` (`MediaSession.open(_:options:until:)`).
    /// `whileWaiting` runs on this thread at each look at Ctrl-C (what the open has to say meanwhile).
    func openInterruptibly(
        _ url: CameraURL, options: CameraConnector.Options, whileWaiting: () -> Void = {}
    ) throws -> MediaSession {
        let interrupt = self.interrupt
        let opened = try MediaSession.open(
            url, options: options, until: interrupt.cancellation, whileWaiting: whileWaiting)
        guard let opened else { throw Interrupted() }
        return opened
    }
}
