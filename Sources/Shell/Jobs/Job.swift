import Foundation
import MediaManager
import POSIX

/// A transfer running in the background (`fetch ... &`, `import ... &`): its number, the line that started
/// it, its progress, and how it ended. The job's thread writes through `JobReporter`; the prompt's thread
/// reads snapshots (`jobs`, `fg`) and, once it ended, its `Ending` (said before the next prompt).
final class Job: @unchecked Sendable {
    // Safety: `progressNow` and `ending` are only touched with `condition` held; the rest is immutable or
    // Sendable.
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
    private let condition = NSCondition()
    private var progressNow = Progress()
    private var ending: Ending?

    /// `progress` is what `jobs` shows until the job's thread reports: its batch, nothing done yet.
    init(number: Int, commandLine: String, remotePaths: Set<String>, progress: Progress = Progress()) {
        self.number = number
        self.commandLine = commandLine
        self.remotePaths = remotePaths
        self.progressNow = progress
    }

    var progress: Progress { condition.withLock { progressNow } }
    var ended: Ending? { condition.withLock { ending } }
    var state: State { ended?.state ?? .running }
    var isRunning: Bool { ended == nil }

    /// The job's thread: the batch moved on.
    func report(_ progress: Progress) { condition.withLock { progressNow = progress } }

    /// The job's thread: the job ended so.
    func finish(_ end: Ending) {
        condition.withLock {
            ending = end
            condition.broadcast()
        }
    }

    /// Waits up to `seconds` for the job to end; its ending, or nil while it still runs.
    func waitForEnd(upTo seconds: Double) -> Ending? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while ending == nil {
            if !condition.wait(until: deadline) { break }
        }
        return ending
    }
}
