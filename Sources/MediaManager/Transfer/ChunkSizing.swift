import Foundation
import POSIX

/// The size of a background transfer's next range request, from the link's measured rate: one request
/// should take about `target` seconds, so that an interactive request (a listing, a thumbnail, a seek),
/// which waits for the one request in flight, waits well under a second. Starts small, then follows the
/// rate measured over the requests so far (a slowdown at once, a speed-up averaged in and at most 4x a
/// step), clamped to `minimum` and `maximum`. One sizing is shared by every file of a job, so the rate carries from file to file.
public final class ChunkSizing: Sendable {
    /// Seconds one request should take.
    public let target: Double
    public let minimum: Int
    public let maximum: Int
    private let now: @Sendable () -> Double
    private let state: Locked<(size: Int, rate: Double?)>

    /// `now` gives monotonic seconds (tests drive it). `maximum` is also capped at what one
    /// GetPartialObject can ask for (a 32-bit count).
    public init(
        target: Double = 0.2, minimum: Int = 256 << 10, maximum: Int = 8 << 20,
        now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.target = target
        self.minimum = max(1, minimum)
        self.maximum = max(self.minimum, min(maximum, Int(UInt32.max)))
        self.now = now
        state = Locked((self.minimum, nil))
    }

    /// Bytes to ask for next.
    public var nextSize: Int { state.withLock { $0.size } }

    /// The rate measured so far (bytes per second), nil before the first request.
    public var measuredRate: Double? { state.withLock { $0.rate } }

    /// Runs one request (`body` returns the bytes it brought) and learns from how long it took.
    public func measure(_ body: () throws -> Int) rethrows -> Int {
        let started = now()
        let bytes = try body()
        record(bytes: bytes, seconds: now() - started)
        return bytes
    }

    /// Learns from one request: `bytes` arrived in `seconds`.
    public func record(bytes: Int, seconds: Double) {
        // Too small or too quick to say anything about the link.
        guard bytes > 0 else { return }
        let sample = Double(bytes) / max(seconds, 1e-6)
        state.withLock { state in
            // A slower link is believed at once (a chunk must never grow long); a faster one is averaged in.
            let rate = state.rate.map { sample < $0 ? sample : 0.5 * $0 + 0.5 * sample } ?? sample
            state.rate = rate
            let wanted = min(rate * target, Double(state.size) * 4)
            state.size = Int(min(max(wanted, Double(minimum)), Double(maximum)))
        }
    }
}
