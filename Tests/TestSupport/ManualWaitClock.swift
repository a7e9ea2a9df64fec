import Foundation
import POSIX

/// A clock that moves only when the code under test pauses or the test moves it: a retry loop bounded by
/// `recovery` seconds runs its exact number of tries at once, and a timeout fires when the test says, whatever
/// the machine's load. Readers can be awaited (`waitForReads`), so a test moves time only once the code under
/// test has taken its deadline.
public final class ManualWaitClock: WaitClock, Sendable {
    private struct State {
        var seconds: Double
        var pauses = 0
        var reads = 0
    }

    private let state: LockedCondition<State>

    public init(start: Double = 1000) { state = LockedCondition(State(seconds: start)) }

    public func now() -> Double {
        state.change { state in
            state.reads += 1
            return state.seconds
        }
    }

    public func pause(_ interval: Double) {
        state.withLock { state in
            state.seconds += interval
            state.pauses += 1
        }
    }

    /// Moves the time on by `interval` seconds.
    public func advance(by interval: Double) {
        state.withLock { $0.seconds += interval }
    }

    /// How many times the code paused.
    public var pauseCount: Int { state.withLock { $0.pauses } }

    /// How many times the clock was read.
    public var readCount: Int { state.withLock { $0.reads } }

    /// Waits (at most `timeout` real seconds) until the clock has been read more than `count` times.
    public func waitForReads(moreThan count: Int, timeout: Double = 10) -> Bool {
        state.wait(until: .after(timeout)) { $0.reads > count }
    }
}
