import Foundation
import MediaManager
import POSIX

/// A transfer running in the background (`fetch ... &`, `import ... &`): its number, the line that started
/// it, its progress, and how it ended. The job's thread writes through `JobReporter`; the prompt's thread
/// reads snapshots (`jobs`, `fg`) and, once it ended, its `Ending` (said before the next prompt).
final class Job: Sendable {
    enum State: String, Sendable, Equatable {
        case running
        case done
        case failed
        /// `kill %N`: the file in progress keeps its `.part`, which a later fetch continues.
        case killed
    }

    /// How far the job is: files and bytes of its whole batch, the rate, the file being fetched.
    struct Progress: Sendable, Equatable {
        var filesDone = 0
        var filesTotal = 0
        var bytesDone: UInt64 = 0
        var bytesTotal: UInt64 = 0
        var bytesPerSecond = 0.0
        var current = ""
    }

    /// What the session state learns from a job once it ended (applied on the prompt's thread).
    enum StateUpdate: Sendable {
        case fetched(MediaFile)
        case stopped(MediaFile, at: UInt64)
        case removed(path: String)
    }

    /// How the job ended: its state, the summary line, the failures it met (one line each), and what
    /// the session state should learn.
    struct Ending: Sendable {
        var state: State
        var summary: String
        var problems: [String] = []
        var updates: [StateUpdate] = []
    }

    let number: Int
    /// The command as typed, without the `&`.
    let commandLine: String
    /// The camera files the job may still touch (`delete` refuses them while it runs).
    let remotePaths: Set<String>
    let cancellation = CancellationFlag()
    /// What the job's thread last reported, and how it ended (nil while it runs).
    private let status: LockedCondition<(progress: Progress, ending: Ending?)>

    /// `progress` is what `jobs` shows until the job's thread reports: its batch, nothing done yet.
    init(number: Int, commandLine: String, remotePaths: Set<String>, progress: Progress = Progress()) {
        self.number = number
        self.commandLine = commandLine
        self.remotePaths = remotePaths
        status = LockedCondition((progress, nil))
    }

    var progress: Progress { status.withLock { $0.progress } }
    var ended: Ending? { status.withLock { $0.ending } }
    var state: State { ended?.state ?? .running }
    var isRunning: Bool { ended == nil }

    /// The job's thread: the batch moved on.
    func report(_ progress: Progress) { status.withLock { $0.progress = progress } }

    /// The job's thread: the job ended so.
    func finish(_ end: Ending) {
        status.change { $0.ending = end }
    }

    /// Waits up to `seconds` (on the monotonic clock) for the job to end; its ending, or nil while it still runs.
    func waitForEnd(upTo seconds: Double) -> Ending? {
        status.wait(until: .after(seconds), for: { $0.ending != nil }) { $0.ending } ?? nil
    }
}
