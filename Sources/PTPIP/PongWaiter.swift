import Foundation
import POSIX
import PTP

/// Lets a thread that sent a Ping wait for the Pong that the event-socket reader sees.
final class PongWaiter: @unchecked Sendable {
    private let condition = NSCondition()
    private var pongs = 0
    private var closed = false

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

    /// Waits for a Pong after the `count`-th one.
    func wait(after count: Int, timeout: TimeInterval, peer: String) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while pongs <= count {
            if closed { throw PTPError.connectionClosed("event connection to \(peer) ended before its Pong") }
            if !condition.wait(until: deadline) {
                throw PTPError.timeout("no Pong from \(peer) within \(formatSeconds(timeout))")
            }
        }
    }
}
