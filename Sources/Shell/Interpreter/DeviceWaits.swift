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
    /// `whileWaiting` runs on this thread at each look at Ctrl-C (what the open has to say meanwhile).
    func openInterruptibly(
        _ url: CameraURL, options: CameraConnector.Options, whileWaiting: () -> Void = {}
    ) throws -> MediaSession {
        let pending = PendingOpen()
        let worker = Thread { pending.deliver(Result { try MediaSession.open(url, options: options) }) }
        worker.name = "camera-open"
        worker.start()
        let interrupt = self.interrupt
        guard let result = pending.wait(pollingEvery: Camera.interruptPollInterval, until: {
            whileWaiting()
            return interrupt.isPending
        }) else {
            throw Interrupted()
        }
        return try result.get()
    }
}

/// An open under way on another thread: its result, or, once the opener gave up waiting, nobody to take
/// it (the session is closed as soon as it arrives).
final class PendingOpen: Sendable {
    private struct State {
        var result: Result<MediaSession, Error>?
        var abandoned = false
    }

    private let state = LockedCondition(State())

    func deliver(_ outcome: Result<MediaSession, Error>) {
        let nobodyWaits = state.change { state -> Bool in
            if !state.abandoned { state.result = outcome }
            return state.abandoned
        }
        if nobodyWaits, case .success(let session) = outcome { session.close() }
    }

    /// The result once it arrived; nil (and the open abandoned) when `stop` said so first, asked every
    /// `interval` seconds (without the lock held).
    func wait(pollingEvery interval: Double, until stop: () -> Bool) -> Result<MediaSession, Error>? {
        while true {
            let arrived: Result<MediaSession, Error>?? = state.wait(
                until: .after(interval), for: { $0.result != nil }, then: { $0.result })
            if let arrived { return arrived }
            if stop() {
                let late = state.withLock { state -> Result<MediaSession, Error>? in
                    if state.result == nil { state.abandoned = true }
                    return state.result
                }
                return late
            }
        }
    }
}
