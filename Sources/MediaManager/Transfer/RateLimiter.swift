import Foundation

/// Keeps a transfer under a byte rate (the shell's `set limit-rate`): told how many bytes are done, it waits
/// until they are due at that rate, counted from when it was last restarted. The clock and the wait are
/// injected, so that tests drive time and a terminal's wait can end early on Ctrl-C.
public final class RateLimiter {
    public let bytesPerSecond: UInt64
    private let now: () -> Double
    private let wait: (Double) -> Void
    private var start: (time: Double, bytes: UInt64)?

    /// `now` gives monotonic seconds; `wait` sleeps for at most the seconds it is given.
    public init(
        bytesPerSecond: UInt64, now: @escaping () -> Double = { ProcessInfo.processInfo.systemUptime },
        wait: @escaping (Double) -> Void
    ) {
        self.bytesPerSecond = max(bytesPerSecond, 1)
        self.now = now
        self.wait = wait
    }

    /// Counts from here: `bytes` (a resumed file's offset, a batch's bytes so far) are not paced.
    public func restart(at bytes: UInt64) {
        start = (now(), bytes)
    }

    /// After `done` bytes: waits until they are due. The first call starts the count when nothing did.
    public func pace(_ done: UInt64) {
        let left = delay(for: done)
        if left > 0 { wait(left) }
    }

    /// The seconds until `done` bytes are due (0 when they are), for a caller that waits itself. The first
    /// call starts the count when nothing did.
    public func delay(for done: UInt64) -> Double {
        let time = now()
        guard let start else {
            self.start = (time, done)
            return 0
        }
        guard done > start.bytes else { return 0 }
        return max(0, start.time + Double(done - start.bytes) / Double(bytesPerSecond) - time)
    }
}
