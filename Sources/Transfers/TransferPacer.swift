import MediaManager
import POSIX
import TerminalKit

/// A batch's pace in this run, on one clock: the bytes it moved (what a `.part` already held does not
/// count), its rate as bytes over a window of real time (`TransferRate`), and the rate limit (`set
/// limit-rate`), which holds the batch as a whole, across its files, to the rate. While the limit holds it
/// back, `redraw` is called every half second so that a progress line shows the bytes already there, the
/// rate and the time left, rather than the state before the last chunk.
public final class TransferPacer {
    private let clock: any WaitClock
    private let limiter: RateLimiter?
    private var rate: TransferRate
    private let cancellation: Cancellation
    /// The file the last report was about, and its bytes then.
    private var file: (name: String, bytes: UInt64)?
    /// Called while the limit holds the transfer back.
    public var redraw: (() -> Void)?

    /// - Parameters:
    ///   - limit: bytes per second, nil for none.
    ///   - cancellation: ends the wait (Ctrl-C, `kill %N`).
    public init(clock: any WaitClock, limit: UInt64?, cancellation: Cancellation) {
        self.clock = clock
        self.cancellation = cancellation
        let start = clock.now()
        rate = TransferRate(startingAt: start)
        limiter = limit.map { limit in
            RateLimiter(bytesPerSecond: limit, now: { clock.now() }, wait: { _ in })
        }
        limiter?.restart(at: 0)
    }

    /// The chunk size that keeps a limited transfer smooth: an eighth of a second's bytes at the limit
    /// (between 1 KiB and 8 MiB), so that neither the rate nor the line moves in big steps.
    public static func chunkSize(forLimit limit: UInt64) -> Int { Int(min(max(limit / 8, 1 << 10), 8 << 20)) }

    /// The bytes moved in this run.
    public var moved: UInt64 { rate.bytes }

    /// The rate now, over the window; nil before the first byte.
    public var bytesPerSecond: Double? { rate.bytesPerSecond(at: clock.now()) }

    /// The clock's time.
    public var now: Double { clock.now() }

    /// After a download's progress report (per file): what moved since that file's last report counts.
    public func update(_ progress: TransferProgress) {
        var moved = self.moved
        if let file, file.name == progress.name, progress.bytesDone >= file.bytes {
            moved += progress.bytesDone - file.bytes
        }
        file = (progress.name, progress.bytesDone)
        rate.record(moved, at: clock.now())
    }

    /// After a batch's progress report that counts the bytes moved in this run itself (`import`).
    public func update(moved: UInt64) {
        rate.record(moved, at: clock.now())
    }

    /// Waits until the bytes moved are due at the limit (at once without one), or until `cancellation`.
    public func pace() {
        guard let limiter else { return }
        while true {
            let left = limiter.delay(for: moved)
            guard left > 0, !cancellation.isCancelled else { return }
            clock.pause(min(left, 0.5))
            redraw?()
        }
    }
}
