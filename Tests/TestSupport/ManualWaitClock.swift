import Foundation
import POSIX

/// A clock that moves only when the code under test pauses or the test moves it: a retry loop bounded by
/// `recovery` seconds runs its exact number of tries at once, and a timeout fires when the test says, whatever
/// the machine's load. Readers can be awaited (`waitForReads`), so a test moves time only once the code under
/// test has taken its deadline.
public final class ManualWaitClock: WaitClock, @unchecked Sendable {
    // Safe because `seconds`, `pauses` and `reads` are touched only with `condition` held.
    private let condition = NSCondition()
    private var seconds: Double
    private var pauses = 0
    private var reads = 0

    public init(start: Double = 1000) { seconds = start }

    public func now() -> Double {
        condition.withLock {
            reads += 1
            condition.broadcast()
            return seconds
        }
    }

    public func pause(_ interval: Double) {
        condition.withLock {
            seconds += interval
            pauses += 1
        }
    }

    /// Moves the time on by `interval` seconds.
    public func advance(by interval: Double) {
        condition.withLock { seconds += interval }
    }

    /// How many times the code paused.
    public var pauseCount: Int { condition.withLock { pauses } }

    /// How many times the clock was read.
    public var readCount: Int { condition.withLock { reads } }

    /// Waits (at most `timeout` real seconds) until the clock has been read more than `count` times.
    public func waitForReads(moreThan count: Int, timeout: Double = 10) -> Bool {
        let deadline = Deadline.after(timeout)
        condition.lock()
        defer { condition.unlock() }
        while reads <= count {
            if deadline.hasPassed { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: deadline.remaining))
        }
        return true
    }
}
