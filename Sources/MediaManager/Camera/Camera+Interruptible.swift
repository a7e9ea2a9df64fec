import Failures
import Foundation
import POSIX
import PTP

/// How an interruptible piece of work on the camera ended when it was interrupted.
public enum CameraInterruption: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stopped between two requests: the session is in step and stays usable.
    case betweenRequests
    /// The device had not answered a request `grace` seconds after the interrupt: the connection was
    /// closed to end the wait, so the camera is unusable now (reopen it).
    case connectionClosed

    public var description: String {
        switch self {
        case .betweenRequests: "interrupted"
        case .connectionClosed: "interrupted; the camera was not answering, so its connection was closed"
        }
    }
}

extension Camera {
    /// How often the watcher asks whether to stop, and how long a request under way may still take after
    /// that before its connection is closed.
    public static let interruptPollInterval: TimeInterval = 0.05
    public static let interruptGrace: TimeInterval = 0.5

    /// Runs `body` (requests to the device: opening's listing, a reload) so that it ends soon after
    /// `cancellation` turns true, however the device behaves: no further request is sent (the session stays
    /// in step: `CameraInterruption.betweenRequests`), and a request the device still has not answered
    /// `grace` seconds later is ended by closing the transport (`CameraInterruption.connectionClosed`;
    /// the camera must be reopened). A watcher thread polls `cancellation` every `interruptPollInterval`
    /// seconds while `body` runs and is gone when this returns.
    public func interruptibly<T>(
        grace: TimeInterval = Camera.interruptGrace, cancellation: Cancellation, _ body: () throws -> T
    ) throws -> T {
        if cancellation.isCancelled { throw CameraInterruption.betweenRequests }
        let watch = InterruptWatch()
        let transport = session.transport
        let watcher = Thread {
            watch.run(grace: grace, cancellation: cancellation) { transport.close() }
        }
        watcher.name = "camera-interrupt-watch"
        watcher.start()
        let result = Result { try session.whileCancellable(cancellation) { try body() } }
        let outcome = watch.finish()
        switch outcome {
        case .closedConnection: throw CameraInterruption.connectionClosed
        case _ where isCancellation(result):
            // The gate stopped a request (or the work itself saw the interrupt), maybe before the watcher did.
            throw CameraInterruption.betweenRequests
        default: return try result.get()
        }
    }

    private func isCancellation<T>(_ result: Result<T, Error>) -> Bool {
        if case .failure(let error) = result { return error is CancellationError }
        return false
    }
}

/// The watcher's side of `interruptibly`: waits (in slices) for the work to finish or for an interrupt,
/// then gives the request under way `grace` seconds before closing the connection.
final class InterruptWatch: Sendable {
    enum Outcome: Sendable { case none, sawInterrupt, closedConnection }
    private struct State {
        var finished = false
        var exited = false
        var outcome = Outcome.none
    }

    private let state = LockedCondition(State())

    /// The watcher thread's loop. `close` runs at most once, and never after `finish` began. `cancellation` and
    /// `close` are called without the watch's lock held.
    func run(grace: Double, cancellation: Cancellation, close: () -> Void) {
        defer { state.change { $0.exited = true } }
        while !cancellation.isCancelled {
            if state.wait(until: .after(Camera.interruptPollInterval), for: { $0.finished }) { return }
        }
        let closing: Bool = state.withLock { state in
            guard !state.finished else { return false }
            state.outcome = .sawInterrupt
            return true
        }
        guard closing else { return }
        if state.wait(until: .after(grace), for: { $0.finished }) { return }
        let stillRunning: Bool = state.withLock { state in
            guard !state.finished else { return false }
            state.outcome = .closedConnection
            return true
        }
        // Closing wakes the request waiting on the device; `finish` waits for the watcher to exit.
        if stillRunning { close() }
    }

    /// Called when the work ended: stops the watcher, waits for it to exit, and says what it saw.
    func finish() -> Outcome {
        state.change { $0.finished = true }
        return state.wait(until: nil, for: { $0.exited }, then: { $0.outcome }) ?? .none
    }
}
