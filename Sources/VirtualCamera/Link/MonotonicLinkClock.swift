import POSIX

/// The link clock `serve` uses: CLOCK_MONOTONIC, with absolute sleeps so that planned moments do not
/// drift by each sleep's oversleep.
public struct MonotonicLinkClock: LinkClock {
    public init() {}
    public func now() -> Double { monotonicSeconds() }
    public func sleep(until moment: Double) { POSIX.sleep(until: Deadline(monotonicSeconds: moment)) }
}
