import Foundation
import Failures

/// How far a batch is, for the progress line: files and bytes of the whole batch, the rate and the
/// time left, and the file being transferred.
public struct BatchProgress: Sendable, Equatable {
    public var filesDone: Int
    public var filesTotal: Int
    public var bytesDone: UInt64
    public var bytesTotal: UInt64
    /// Bytes per second over this run (bytes a `.part` already held do not count).
    public var bytesPerSecond: Double
    /// The bytes moved in this run (what a `.part` already held does not count): what a rate limit paces
    /// and a rate over a window of time is measured on.
    public var bytesMoved: UInt64 = 0
    public var elapsed: TimeInterval
    /// The file being transferred (its name on the card).
    public var current: String

    public init(
        filesDone: Int, filesTotal: Int, bytesDone: UInt64, bytesTotal: UInt64, bytesPerSecond: Double,
        elapsed: TimeInterval, current: String
    ) {
        self.filesDone = filesDone
        self.filesTotal = filesTotal
        self.bytesDone = bytesDone
        self.bytesTotal = bytesTotal
        self.bytesPerSecond = bytesPerSecond
        self.elapsed = elapsed
        self.current = current
    }

    /// Seconds left at the current rate; nil before the rate is known.
    public var secondsLeft: Double? {
        guard bytesPerSecond > 0 else { return nil }
        return Double(bytesTotal - min(bytesDone, bytesTotal)) / bytesPerSecond
    }
}

/// What a finished (or stopped) batch did, for its one summary line.
public struct BatchSummary: Sendable, Equatable {
    public var fetched = 0
    /// Left alone: imported before (the ledger), or the same file already at its destination.
    public var skipped = 0
    /// Fetched under a unique name because a different file had the pattern's name.
    public var renamed = 0
    public var failed = 0
    /// Bytes written in this run, those of files that stopped half-way included (`bytesKept`).
    public var bytes: UInt64 = 0
    /// Of `bytes`, those written into `.part`s left unfinished (kept for the next run to continue).
    public var bytesKept: UInt64 = 0
    public var seconds: TimeInterval = 0
    /// Deleted from the camera after import (`--delete-after`).
    public var deleted = 0
    /// Ctrl-C stopped the batch; what is left is fetched by running it again.
    public var interrupted = false
    /// Files whose own dates were nonsense (1970, 1980-01-01, …) and that were placed by the next source.
    public var datesSetAside = 0
    /// Seconds added to every capture time (`--shift`).
    public var shift: TimeInterval = 0
    /// The manifests written, one per destination (`ImportManifest`).
    public var manifests: [String] = []
    /// The ASC MHL generations written (`import --mhl`), one in each destination's root.
    public var mhlGenerations: [String] = []
    /// Backup destinations that stopped during the run (full, removed), each with why.
    public var stoppedDestinations: [StoppedDestination] = []
    /// Files that came home but are not in every destination asked for (their names).
    public var missingCopies: [String] = []
    /// Copies made from a proven local copy for files an earlier import left missing in a destination.
    public var completedCopies = 0

    public init() {}
}

/// A backup destination an import left for the rest of its run: its root, and the failure that stopped it
/// (ENOSPC: the disk filled up; ENOENT: the drive was pulled).
public struct StoppedDestination: Sendable, Equatable, CustomStringConvertible {
    public let root: String
    public let why: SystemError

    public init(root: String, why: SystemError) {
        self.root = root
        self.why = why
    }

    /// `ROOT: write /mnt/b/x.part: No space left on device`.
    public var description: String { "\(root): \(why)" }
}
