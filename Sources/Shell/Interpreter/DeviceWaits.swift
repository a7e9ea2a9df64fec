import Connectors
import Foundation
import MediaManager
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
            return try session.camera.interruptibly(cancelled: { interrupt.isPending }, body)
        } catch CameraInterruption.betweenRequests {
            throw Interrupted()
        } catch CameraInterruption.connectionClosed {
            guard media === session else { throw Interrupted(detail: "the camera was not answering") }
            closeCamera()
            throw Interrupted(detail: "the camera was not answering, so it is closed now ('open \(session.url)' reconnects)")
        }
    }

    /// Opens `url` on a thread of its own, so that Ctrl-C during any wait of opening (connecting, the
    /// handshake, OpenSession, GetDeviceInfo) returns at once with `Interrupted`; a camera that finishes
    /// opening after that is closed by that thread (the transport's timeout bounds how long it waits).
    func openInterruptibly(_ url: CameraURL, options: CameraConnector.Options) throws -> MediaSession {
        let pending = PendingOpen()
        let worker = Thread { pending.deliver(Result { try MediaSession.open(url, options: options) }) }
        worker.name = "camera-open"
        worker.start()
        let interrupt = self.interrupt
        guard let result = pending.wait(pollingEvery: Camera.interruptPollInterval, until: { interrupt.isPending }) else {
            throw Interrupted()
        }
        return try result.get()
    }
}

/// An open under way on another thread: its result, or, once the opener gave up waiting, nobody to take
/// it (the session is closed as soon as it arrives).
final class PendingOpen: @unchecked Sendable {
    // Safety: `result` and `abandoned` are only touched with `condition` held.
    private let condition = NSCondition()
    private var result: Result<MediaSession, Error>?
    private var abandoned = false

    func deliver(_ outcome: Result<MediaSession, Error>) {
        condition.lock()
        let nobodyWaits = abandoned
        if !nobodyWaits { result = outcome }
        condition.broadcast()
        condition.unlock()
        if nobodyWaits, case .success(let session) = outcome { session.close() }
    }

    /// The result once it arrived; nil (and the open abandoned) when `stop` said so first, asked every
    /// `interval` seconds.
    func wait(pollingEvery interval: TimeInterval, until stop: () -> Bool) -> Result<MediaSession, Error>? {
        condition.lock()
        defer { condition.unlock() }
        while result == nil {
            if stop() {
                abandoned = true
                return nil
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: interval))
        }
        return result
    }
}
