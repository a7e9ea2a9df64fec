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
public final class ManualClock: PlaybackClock, Sendable {
    private let time: Locked<Double>

    public init(now: Double = 0) {
        time = Locked(now)
    }

    public var now: Double { time.withLock { $0 } }

    /// Moves the clock forward by `seconds` (never backward: a negative amount is ignored).
    public func advance(by seconds: Double) {
        time.withLock { $0 += max(seconds, 0) }
    }
}
