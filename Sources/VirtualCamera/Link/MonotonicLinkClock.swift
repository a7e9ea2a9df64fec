import POSIX

/// The link clock `serve` uses: CLOCK_MONOTONIC, with absolute sleeps so that planned moments do not
/// drift by each sleep's oversleep, each on a thread whose sleeps end on time (`usePreciseSleeps`: else
/// each one ends some 50 microseconds late, which a modelled round trip would carry).
public struct MonotonicLinkClock: LinkClock {
    public init() {}
    public func now() -> Double { monotonicSeconds() }
    public func sleep(until moment: Double) {
        usePreciseSleeps()
        POSIX.sleep(until: Deadline(monotonicSeconds: moment))
    }
}
