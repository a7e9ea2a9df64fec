import Import
import MediaManager
import POSIX

/// A transfer running in the background (`fetch ... &`, `import ... &`): its number, the line that started
/// it, its progress, and how it ended. The job's thread reports its progress and its `Ending`; the prompt's
/// thread reads snapshots (`jobs`, `fg`) and, once it ended, its `Ending` (which the shell words).
public final class Job: Sendable {
    public enum State: String, Sendable, Equatable {
        case running
        case done
        case failed
        /// `kill %N`: the file in progress keeps its `.part`, which a later fetch continues.
        case killed
    }

    /// How far the job is: files and bytes of its whole batch, the rate, the file being fetched.
    public struct Progress: Sendable, Equatable {
        public var filesDone = 0
        public var filesTotal = 0
        public var bytesDone: UInt64 = 0
        public var bytesTotal: UInt64 = 0
        public var bytesPerSecond = 0.0
        public var current = ""

        public init(
            filesDone: Int = 0, filesTotal: Int = 0, bytesDone: UInt64 = 0, bytesTotal: UInt64 = 0,
            bytesPerSecond: Double = 0, current: String = ""
        ) {
            self.filesDone = filesDone
            self.filesTotal = filesTotal
            self.bytesDone = bytesDone
            self.bytesTotal = bytesTotal
            self.bytesPerSecond = bytesPerSecond
            self.current = current
        }
    }

    /// What the session state learns from a job once it ended (applied on the prompt's thread).
    public enum StateUpdate: Sendable {
        case fetched(MediaFile)
        case stopped(MediaFile, at: UInt64)
        case removed(path: String)
    }

    /// What went wrong in a job, as facts: the shell says each in a line when the job ended.
    public enum Problem: Sendable {
        /// A file failed to arrive.
        case failed(MediaFile, any Error)
        /// A file arrived (is home, for an import) but was not deleted from the camera.
        case notDeleted(MediaFile, any Error)
        /// An import's copy of a file in `destination` failed.
        case noCopy(MediaFile, destination: String, any Error)
        /// An imported file's XMP sidecar could not be written (the file is home).
        case noSidecar(MediaFile, any Error)
        /// An import left a backup destination for the rest of its run.
        case destinationLeft(StoppedDestination)
        /// The whole batch stopped with this error.
        case stopped(any Error)
    }

    /// How the job ended: its state, the command it ran (`fetch`, `import`), its batch's figures (nil when it
    /// stopped before it had any), the problems it met, and what the session state should learn.
    public struct Ending: Sendable {
        public var state: State
        public var command: String
        public var summary: BatchSummary?
        public var problems: [Problem] = []
        public var updates: [StateUpdate] = []

        public init(
            state: State, command: String, summary: BatchSummary?, problems: [Problem] = [],
            updates: [StateUpdate] = []
        ) {
            self.state = state
            self.command = command
            self.summary = summary
            self.problems = problems
            self.updates = updates
        }
    }

    public let number: Int
    /// The command as typed, without the `&`.
    public let commandLine: String
    /// The camera files the job may still touch (`delete` refuses them while it runs).
    public let remotePaths: Set<String>
    public let cancellation = Cancellation()
    /// What the job's thread last reported, and how it ended (nil while it runs).
    private let status: LockedCondition<(progress: Progress, ending: Ending?)>

    /// `progress` is what `jobs` shows until the job's thread reports: its batch, nothing done yet.
    init(number: Int, commandLine: String, remotePaths: Set<String>, progress: Progress = Progress()) {
        self.number = number
        self.commandLine = commandLine
        self.remotePaths = remotePaths
        status = LockedCondition((progress, nil))
    }

    public var progress: Progress { status.withLock { $0.progress } }
    public var ended: Ending? { status.withLock { $0.ending } }
    public var state: State { ended?.state ?? .running }
    public var isRunning: Bool { ended == nil }

    /// The job's thread: the batch moved on (which wakes whoever waits for progress).
    public func report(_ progress: Progress) { status.change { $0.progress = progress } }

    /// The job's thread: the job ended so.
    public func finish(_ end: Ending) {
        status.change { $0.ending = end }
    }

    /// Waits up to `seconds` (on the monotonic clock) until the job's thread reports progress `isEnough`
    /// accepts, or the job ends; the progress then, or nil when neither came within `seconds`.
    public func waitForProgress(upTo seconds: Double, until isEnough: (Progress) -> Bool) -> Progress? {
        status.wait(until: .after(seconds), for: { isEnough($0.progress) || $0.ending != nil }) { $0.progress }
    }

    /// Waits up to `seconds` (on the monotonic clock) for the job to end; its ending, or nil while it still runs.
    public func waitForEnd(upTo seconds: Double) -> Ending? {
        status.wait(until: .after(seconds), for: { $0.ending != nil }) { $0.ending } ?? nil
    }
}
