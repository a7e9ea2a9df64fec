import Foundation
import POSIX
import PTP

/// Lets a thread that sent a Ping wait for the Pong that the event-socket reader sees.
///
/// Its timeout is measured on an injected clock (`PTPIPTimeouts.clock`, the monotonic clock unless a test
/// gives a manual one): the deadline is a moment on that clock, and the wait ends when the clock reads past it,
/// so a wall-clock jump neither cuts it short nor stretches it, and a test drives it without waiting.
final class PongWaiter: @unchecked Sendable {
    // Safety: `pongs` and `closed` are only touched with `condition` held.
    private let condition = NSCondition()
    private var pongs = 0
    private var closed = false
    private let clock: any WaitClock

    init(clock: any WaitClock = MonotonicClock()) { self.clock = clock }

    /// The count to pass to `wait(after:)`; take it before sending the Ping.
    var current: Int { condition.withLock { pongs } }

    func received() {
        condition.withLock {
            pongs += 1
            condition.broadcast()
        }
    }

    /// No Pong can come any more (the event socket ended).
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// Wakes a waiter to read its clock again: what a manual clock's owner calls after moving its time.
    func clockMoved() {
        condition.withLock { condition.broadcast() }
    }

    /// Waits for a Pong after the `count`-th one, for at most `timeout` seconds of the clock.
    func wait(after count: Int, timeout: TimeInterval, peer: String) throws {
        condition.lock()
        defer { condition.unlock() }
        let deadline = clock.now() + timeout
        while pongs <= count {
            if closed { throw PTPError.connectionClosed("event connection to \(peer) ended before its Pong") }
            let left = deadline - clock.now()
            if left <= 0 { throw PTPError.timeout("no Pong from \(peer) within \(formatSeconds(timeout))") }
            // The condition's own wait is on the wall clock; it only bounds one pass of this loop, whose
            // verdict comes from `clock`.
            _ = condition.wait(until: Date(timeIntervalSinceNow: left))
        }
    }
}
