/// Shows a transfer's progress line, redrawn in place with `\r` on a terminal and silent otherwise.
///
/// Time is passed in (seconds on any monotonic clock), so the meter is deterministic under test;
/// the rate is measured over the last few seconds.
public final class ProgressMeter {
    private let name: String
    private let total: UInt64?
    private let isTerminal: Bool
    private let width: () -> Int
    private let write: (String) -> Void
    private var samples: [(time: Double, done: UInt64)] = []
    private var lastDraw: Double?
    private var finished = false

    /// Seconds between redraws, to keep a fast transfer from flooding the terminal.
    public var redrawInterval = 0.1
    /// Seconds of history the rate is measured over.
    public var rateWindow = 5.0

    /// - Parameters:
    ///   - isTerminal: false in batch mode: nothing is written.
    ///   - width: the terminal width, asked at each redraw (it may change).
    ///   - write: where the text goes (usually standard output).
    public init(
        name: String, total: UInt64?, isTerminal: Bool, width: @escaping () -> Int,
        write: @escaping (String) -> Void
    ) {
        self.name = name
        self.total = total
        self.isTerminal = isTerminal
        self.width = width
        self.write = write
    }

    /// The current rate in bytes per second over the window, nil until two samples exist.
    public var bytesPerSecond: Double? {
        guard let first = samples.first, let last = samples.last, last.time > first.time,
            last.done >= first.done
        else { return nil }
        return Double(last.done - first.done) / (last.time - first.time)
    }

    /// Records that `done` bytes have arrived at `time` and redraws when due.
    public func update(done: UInt64, at time: Double) {
        guard !finished else { return }
        samples.append((time, done))
        while let first = samples.first, samples.count > 2, time - first.time > rateWindow { samples.removeFirst() }
        if let last = lastDraw, time - last < redrawInterval { return }
        draw(done: done, at: time)
    }

    /// Draws the final line and ends it with a newline (on a terminal).
    public func finish(done: UInt64, at time: Double) {
        guard !finished else { return }
        samples.append((time, done))
        draw(done: done, at: time)
        finished = true
        if isTerminal { write("\n") }
    }

    private func draw(done: UInt64, at time: Double) {
        lastDraw = time
        guard isTerminal else { return }
        let line = ProgressLine.format(
            name: name, done: done, total: total, bytesPerSecond: bytesPerSecond, width: max(1, width() - 1))
        write("\r" + line + "\u{1B}[K")
    }
}
