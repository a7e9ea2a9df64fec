/// The time a bounded retry loop reads and the pause it takes between tries ("until the device is no longer
/// busy, for at most 3 s"). Injected wherever such a timeout lives, so a test drives time with a manual clock
/// instead of racing the real one.
public protocol WaitClock: Sendable {
    /// Seconds on a clock that never goes back.
    func now() -> Double
    /// Pauses for `seconds` (a manual clock moves its time instead).
    func pause(_ seconds: Double)
}

/// The monotonic clock (`monotonicSeconds()`), pausing with `sleep(until:)`.
public struct MonotonicClock: WaitClock {
    public init() {}
    public func now() -> Double { monotonicSeconds() }
    public func pause(_ seconds: Double) { sleep(until: Deadline(monotonicSeconds: monotonicSeconds() + seconds)) }
}
