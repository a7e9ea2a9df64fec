/// Shows a transfer's progress line, redrawn in place with `\r` on a terminal and silent otherwise.
///
/// Time is passed in (seconds on any monotonic clock), so the meter is deterministic under test;
/// the rate is bytes over a window of real time (`TransferRate`), from the first update on.
public final class ProgressMeter {
    private let name: String
    private let total: UInt64?
    private let isTerminal: Bool
    private let width: () -> Int
    private let write: (String) -> Void
    private var rate: TransferRate?
    private var done: UInt64 = 0
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

    /// The rate in bytes per second at `time`, over the window; nil before any byte moved.
    public func bytesPerSecond(at time: Double) -> Double? { rate?.bytesPerSecond(at: time) }

    /// Records that `done` bytes have arrived at `time` and redraws when due. The first update starts the
    /// count (bytes a resumed file already had do not make a rate).
    public func update(done: UInt64, at time: Double) {
        guard !finished else { return }
        record(done, at: time)
        if let last = lastDraw, time - last < redrawInterval { return }
        draw(done: done, at: time)
    }

    /// Redraws the line at `time` with the bytes so far (while a rate limit holds the transfer back, the
    /// rate and the time left move on).
    public func refresh(at time: Double) {
        guard !finished, rate != nil else { return }
        draw(done: done, at: time)
    }

    /// Draws the final line and ends it with a newline (on a terminal).
    public func finish(done: UInt64, at time: Double) {
        guard !finished else { return }
        record(done, at: time)
        draw(done: done, at: time)
        finished = true
        if isTerminal { write("\n") }
    }

    private func record(_ done: UInt64, at time: Double) {
        self.done = done
        if rate == nil {
            rate = TransferRate(window: rateWindow, startingAt: time, bytes: done)
        } else {
            rate?.record(done, at: time)
        }
    }

    private func draw(done: UInt64, at time: Double) {
        lastDraw = time
        guard isTerminal else { return }
        let line = ProgressLine.format(
            name: name, done: done, total: total, bytesPerSecond: bytesPerSecond(at: time), width: max(1, width() - 1))
        write("\r" + line + "\u{1B}[K")
    }
}
