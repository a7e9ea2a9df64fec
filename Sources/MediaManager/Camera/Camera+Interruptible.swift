import Foundation
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
    /// `cancelled` turns true, however the device behaves: no further request is sent (the session stays
    /// in step: `CameraInterruption.betweenRequests`), and a request the device still has not answered
    /// `grace` seconds later is ended by closing the transport (`CameraInterruption.connectionClosed`;
    /// the camera must be reopened). A watcher thread polls `cancelled` every `interruptPollInterval`
    /// seconds while `body` runs and is gone when this returns.
    public func interruptibly<T>(
        grace: TimeInterval = Camera.interruptGrace, cancelled: @escaping @Sendable () -> Bool, _ body: () throws -> T
    ) throws -> T {
        if cancelled() { throw CameraInterruption.betweenRequests }
        let watch = InterruptWatch()
        let transport = session.transport
        let watcher = Thread {
            watch.run(grace: grace, cancelled: cancelled) { transport.close() }
        }
        watcher.name = "camera-interrupt-watch"
        watcher.start()
        let result = Result { try session.whileCancellable(cancelled) { try body() } }
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
final class InterruptWatch: @unchecked Sendable {
    // Safety: `finished`, `outcome` and `exited` are only touched with `condition` held.
    enum Outcome { case none, sawInterrupt, closedConnection }
    private let condition = NSCondition()
    private var finished = false
    private var exited = false
    private var outcome = Outcome.none

    /// The watcher thread's loop. `close` runs at most once, and never after `finish` began.
    func run(grace: TimeInterval, cancelled: @Sendable () -> Bool, close: () -> Void) {
        condition.lock()
        defer {
            exited = true
            condition.broadcast()
            condition.unlock()
        }
        while !finished && !cancelled() {
            _ = condition.wait(until: Date(timeIntervalSinceNow: Camera.interruptPollInterval))
        }
        guard !finished else { return }
        outcome = .sawInterrupt
        let deadline = Date(timeIntervalSinceNow: grace)
        while !finished {
            if !condition.wait(until: deadline) && !finished {
                outcome = .closedConnection
                // Closing wakes the request waiting on the device; `finish` waits for the watcher to exit.
                condition.unlock()
                close()
                condition.lock()
                return
            }
        }
    }

    /// Called when the work ended: stops the watcher, waits for it to exit, and says what it saw.
    func finish() -> Outcome {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        condition.broadcast()
        while !exited { condition.wait() }
        return outcome
    }
}
