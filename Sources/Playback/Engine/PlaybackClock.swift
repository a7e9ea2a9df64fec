import Foundation
import POSIX

/// Where the playback engine reads the time from, so tests can move time by hand.
/// Seconds on a monotonic timeline; only differences matter.
public protocol PlaybackClock: Sendable {
    /// The current time in seconds.
    var now: Double { get }
}

/// The system's monotonic clock (CLOCK_MONOTONIC): unaffected by changes to the wall clock.
public struct SystemPlaybackClock: PlaybackClock {
    public init() {}
    public var now: Double { monotonicSeconds() }
}

/// A clock that moves only when told: for tests and for replaying a session deterministically.
public final class ManualClock: PlaybackClock, @unchecked Sendable {
    // Safety: `time` is guarded by `lock`.
    private let lock = NSLock()
    private var time: Double

    public init(now: Double = 0) {
        time = now
    }

    public var now: Double { lock.withLock { time } }

    /// Moves the clock forward by `seconds` (never backward: a negative amount is ignored).
    public func advance(by seconds: Double) {
        lock.withLock { time += max(seconds, 0) }
    }
}
