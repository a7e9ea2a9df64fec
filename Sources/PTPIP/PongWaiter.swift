import Foundation
import POSIX
import PTP

/// Lets a thread that sent a Ping wait for the Pong that the event-socket reader sees.
///
/// Its timeout is measured on an injected clock (`PTPIPTimeouts.clock`, the monotonic clock unless a test
/// gives a manual one): the deadline is a moment on that clock, and the wait ends when the clock reads past it,
/// so a wall-clock jump neither cuts it short nor stretches it, and a test drives it without waiting.
final class PongWaiter: Sendable {
    private struct State {
        var pongs = 0
        var closed = false
        /// How often a manual clock's owner said it moved the time.
        var clockMoves = 0
    }

    private let state = LockedCondition(State())
    private let clock: any WaitClock

    init(clock: any WaitClock = MonotonicClock()) { self.clock = clock }

    /// The count to pass to `wait(after:)`; take it before sending the Ping.
    var current: Int { state.withLock { $0.pongs } }

    func received() { state.change { $0.pongs += 1 } }

    /// No Pong can come any more (the event socket ended).
    func close() { state.change { $0.closed = true } }

    /// Wakes a waiter to read its clock again: what a manual clock's owner calls after moving its time.
    func clockMoved() { state.change { $0.clockMoves += 1 } }

    /// Waits for a Pong after the `count`-th one, for at most `timeout` seconds of the clock.
    func wait(after count: Int, timeout: Double, peer: String) throws {
        let deadline = clock.now() + timeout
        while true {
            let seen = state.withLock { $0 }
            if seen.pongs > count { return }
            if seen.closed { throw PTPError.connectionClosed(.endedBeforePong(peer: peer)) }
            let left = deadline - clock.now()
            if left <= 0 { throw PTPError.timeout(.init(peer: peer, seconds: timeout, awaited: .pong)) }
            // One pass, until something changes or `left` seconds pass on the monotonic clock: the verdict is
            // `clock`'s, read again above.
            _ = state.wait(until: .after(left), for: {
                $0.pongs != seen.pongs || $0.closed || $0.clockMoves != seen.clockMoves
            })
        }
    }
}
