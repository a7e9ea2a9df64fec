/// A transfer's rate as bytes over a window of real time: the bytes moved since the window's start over the
/// seconds since then, the window being the last `window` seconds or, early on, everything since the
/// transfer started (counted as at least `minimumSpan`). A chunk that arrives in a burst (read ahead, or
/// the first one) moves the rate by its share of the window, never to the chunk's own speed; the first
/// bytes give a rate at once.
///
/// Times are seconds on any monotonic clock, passed in, so that tests drive it.
public struct TransferRate: Sendable {
    /// Seconds the rate is measured over once the transfer has run that long.
    public let window: Double
    /// The shortest time a rate is measured over: the first chunk, arrived a millisecond after the start,
    /// is not a rate of gigabytes a second.
    public let minimumSpan: Double
    private var samples: [(time: Double, bytes: UInt64)] = []
    /// Samples closer together than this are merged, so a window holds about fifty.
    private var spacing: Double { window / 50 }

    /// Starts counting at `time` with `bytes` already moved (a transfer starts before its first request).
    public init(window: Double = 5, minimumSpan: Double = 1, startingAt time: Double, bytes: UInt64 = 0) {
        self.window = max(window, 0.001)
        self.minimumSpan = min(max(minimumSpan, 0.001), self.window)
        samples = [(time, bytes)]
    }

    /// The bytes moved so far (a count that only grows) at `time`.
    public mutating func record(_ bytes: UInt64, at time: Double) {
        guard let last = samples.last else { return }
        let sample = (time: max(time, last.time), bytes: max(bytes, last.bytes))
        if samples.count >= 2, sample.time - samples[samples.count - 2].time < spacing {
            samples[samples.count - 1] = sample
        } else {
            samples.append(sample)
        }
        // Keep one sample at or before the window's start.
        while samples.count > 2, samples[1].time <= sample.time - window { samples.removeFirst() }
    }

    /// The bytes moved so far.
    public var bytes: UInt64 { samples.last?.bytes ?? 0 }

    /// Bytes per second over the window ending at `time`; nil before any byte moved.
    public func bytesPerSecond(at time: Double) -> Double? {
        guard let first = samples.first, let last = samples.last, last.bytes > first.bytes else { return nil }
        let now = max(time, last.time)
        let start = max(first.time, now - window)
        // The bytes known at the window's start: those of the last sample at or before it (at the transfer's
        // start, what it started with: later samples at that same moment are bytes moved since).
        let before = start <= first.time ? first.bytes : samples.last { $0.time <= start }?.bytes ?? first.bytes
        return Double(last.bytes - before) / max(now - start, minimumSpan)
    }
}
