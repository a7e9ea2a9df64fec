#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Seconds on the monotonic clock (CLOCK_MONOTONIC), which neither jumps with the wall clock nor goes back.
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// A moment on the monotonic clock by which something must have happened. Waits in this module take one
/// (nil: wait for ever), so a loop of several waits shares one bound instead of restarting it each time.
public struct Deadline: Sendable, Hashable, Comparable {
    /// Monotonic seconds (see `monotonicSeconds()`).
    public let seconds: Double

    public init(monotonicSeconds seconds: Double) { self.seconds = seconds }

    /// `interval` seconds from now.
    public static func after(_ interval: Double) -> Deadline { Deadline(monotonicSeconds: monotonicSeconds() + interval) }

    public static var now: Deadline { Deadline(monotonicSeconds: monotonicSeconds()) }

    /// Seconds left, never negative.
    public var remaining: Double { max(0, seconds - monotonicSeconds()) }

    public var hasPassed: Bool { monotonicSeconds() >= seconds }

    public static func < (a: Deadline, b: Deadline) -> Bool { a.seconds < b.seconds }
}

/// Milliseconds for poll(2) until `deadline`, rounded up so a tiny wait never becomes a busy poll; -1 for none.
func pollMilliseconds(until deadline: Deadline?) -> Int32 {
    guard let deadline else { return -1 }
    let left = deadline.seconds - monotonicSeconds()
    if left <= 0 { return 0 }
    return Int32(min((left * 1000).rounded(.up), Double(Int32.max)))
}
