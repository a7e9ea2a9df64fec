import CommandKit
import Foundation
import Import
import MediaManager
import TerminalKit
import Transfers
import Words

/// Jobs at the shell: starting one, saying how jobs ended (before the next prompt, as a POSIX shell does),
/// and what `quit`, `close`, `open`, `fetch` and `delete` do while jobs run.
extension Interpreter {
    /// Starts `work` as the next job for the line `invocation` came from, and says `[N] LINE`.
    func startJob(
        _ invocation: Invocation, files: [MediaFile], _ work: @escaping @Sendable (Job) -> Job.Ending
    ) throws -> CommandOutcome {
        let line = JobWords.commandLine(invocation)
        // Its batch from the start: `jobs` typed before the job's thread first reports says "0/3 files".
        let wanted = files.filter { !$0.isFolder }
        let batch = Job.Progress(filesTotal: wanted.count, bytesTotal: wanted.reduce(0) { $0 + $1.size })
        let job = try jobs.start(commandLine: line, remotePaths: Set(files.map(\.path)), progress: batch, work)
        quitWarned = false
        output.line("[\(job.number)] \(line)")
        return .success
    }

    /// Says how each job that ended since the last time ended (its problems on standard error, then one
    /// line), and gives the session state what it learnt. Returns the jobs' endings.
    @discardableResult
    func sayEndedJobs() -> [Job.Ending] {
        let ended = jobs.takeEnded()
        for (job, ending) in ended {
            for problem in ending.problems {
                output.error("[\(job.number)] " + SafeText.display(JobWords.problem(problem, command: ending.command)))
            }
            output.line(JobWords.endLine(job, ending))
            for update in ending.updates {
                switch update {
                case .fetched(let file): state.fetchCompleted(file)
                case .stopped(let file, let at): state.fetchStopped(file, at: at)
                case .removed(let path): state.fileRemoved(path: path)
                }
            }
        }
        return ended.map(\.ending)
    }

    /// Waits for `chosen` jobs to end (Ctrl-C stops the wait, not the jobs) and says how they ended.
    /// Returns nil when interrupted, else whether every one succeeded.
    func waitForJobs(_ chosen: [Job]) -> Bool? {
        for job in chosen {
            while job.waitForEnd(upTo: 0.1) == nil {
                if interrupt.isPending { return nil }
            }
        }
        var succeeded = true
        for ending in sayEndedJobs() where ending.state != .done { succeeded = false }
        return succeeded
    }

    /// Kills every running job and waits for each to stop at its next chunk.
    func killJobs() {
        let running = jobs.running
        for job in running { job.cancellation.cancel() }
        for job in running { _ = job.waitForEnd(upTo: 60) }
        sayEndedJobs()
    }

    /// Refuses `command` while jobs run, for what would pull the camera from under them.
    func refuseWhileJobsRun(_ command: String) throws {
        let running = jobs.running
        guard let first = running.first else { return }
        let which = running.count == 1 ? "job %\(first.number) is" : "\(running.count) jobs are"
        throw CommandError(
            "\(which) using the camera: 'wait' lets \(running.count == 1 ? "it" : "them") finish, "
                + "'kill %\(first.number)' stops \(running.count == 1 ? "it" : "one") (its .part is kept)")
    }

    /// Refuses to touch files a running job is fetching: two writers of one `.part`, or a file deleted under a
    /// download, must never meet.
    func refuseFilesOfRunningJobs(_ files: [MediaFile], _ command: String) throws {
        guard let job = jobs.holder(of: files.map(\.path)) else { return }
        let name = files.first { job.remotePaths.contains($0.path) }.map { SafeText.display($0.name) } ?? "a file"
        throw CommandError("\(name) is being fetched by job %\(job.number) ('wait %\(job.number)' or 'kill %\(job.number)' first)")
    }

    /// Before leaving (quit, Ctrl-D, the end of a script): true when the shell may go. At a prompt with
    /// `jobs-on-exit ask`, the first attempt says what runs and stays; a second one kills them. In a script
    /// `ask` waits. A job that failed makes a script's status 1.
    func settleJobsBeforeExit(interactive: Bool) -> (mayLeave: Bool, jobFailed: Bool) {
        let running = jobs.running
        guard !running.isEmpty else { return (true, sayEndedJobs().contains { $0.state != .done }) }
        var policy = state.settings.jobsOnExit
        if policy == .ask {
            if !interactive {
                policy = .wait
            } else if !quitWarned {
                quitWarned = true
                let count = running.count == 1 ? "1 job is" : "\(running.count) jobs are"
                report(
                    "\(count) still running ('jobs' lists them): 'wait' waits for them, 'quit' again stops them "
                        + "(each .part is kept, a later fetch continues it)", severity: .notice)
                return (false, false)
            } else {
                policy = .kill
            }
        }
        if policy == .kill {
            killJobs()
            return (true, false)
        }
        guard let succeeded = waitForJobs(running) else {
            // Ctrl-C during the wait: stop them instead.
            killJobs()
            return (true, true)
        }
        return (true, !succeeded)
    }
}

/// The words of jobs: the line as typed, what went wrong, how one ended, how one is listed.
enum JobWords {
    /// One problem of a job that ended: `fetch: NAME: why`, or the download's own sentence when it names the file.
    static func problem(_ problem: Job.Problem, command: String) -> String {
        switch problem {
        case .failed(let file, let error):
            if case DownloadError.interrupted = error { return "\(command): " + Interpreter.message(for: error) }
            return "\(command): \(SafeText.display(file.name)): " + Interpreter.message(for: error)
        case .notDeleted(let file, let error):
            return "\(command): \(SafeText.display(file.name)) \(command == "import" ? "is home" : "arrived") "
                + "but was not deleted from the camera: " + Interpreter.message(for: error)
        case .noCopy(let file, let destination, let error):
            return "\(command): \(SafeText.display(file.name)): no copy in \(SafeText.display(destination)): "
                + Interpreter.message(for: error)
        case .destinationLeft(let why):
            return "\(command): the backup destination \(SafeText.display(why)); it was left for the rest of the import"
        case .stopped(let error):
            return "\(command): " + Interpreter.message(for: error)
        }
    }

    /// `fetch: 3 fetched, 0 skipped (already here), ...`, or `import: stopped` when the batch had no figures.
    static func summary(_ ending: Job.Ending) -> String {
        guard let summary = ending.summary else { return "\(ending.command): stopped" }
        let line = BatchWords.summaryLine(summary, command: ending.command)
        return ending.command == "fetch" ? line.replacingOccurrences(of: "(already imported)", with: "(already here)") : line
    }

    /// The line as the user typed it, from its checked words (without the `&`).
    static func commandLine(_ invocation: Invocation) -> String {
        var words = [invocation.name.text]
        words += invocation.flags.map { "--" + $0.rawValue }.sorted()
        for (option, value) in invocation.values.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            words += ["--" + option.rawValue, ShellEscapedName.quoted(value.text)]
        }
        words += invocation.arguments.map { $0.glob != nil ? $0.text : ShellEscapedName.quoted($0.text) }
        return SafeText.display(words.joined(separator: " "))
    }

    /// `[1] done  fetch *.MP4  (3 fetched, 0 skipped (already here), 0 renamed, 0 failed; 1.0 GB in 4.1 s (250 MB/s))`.
    static func endLine(_ job: Job, _ ending: Job.Ending) -> String {
        var summary = Substring(Self.summary(ending))
        if let colon = summary.firstIndex(of: ":"), !summary[..<colon].contains(" ") {
            summary = summary[summary.index(after: colon)...].drop { $0 == " " }
        }
        return "[\(job.number)] \(ending.state.rawValue)  \(job.commandLine)  (\(summary))"
    }

    /// `[1] running  fetch *.MP4  3/12 files  240 MB of 1.0 GB  45 MB/s  ETA 0:18  DJI_0042.MP4`.
    static func listLine(_ job: Job, width: Int) -> String {
        let p = job.progress
        let head = "[\(job.number)] \(job.state.rawValue)  \(job.commandLine)  "
        let figures = BatchProgress(
            filesDone: p.filesDone, filesTotal: p.filesTotal, bytesDone: p.bytesDone, bytesTotal: p.bytesTotal,
            bytesPerSecond: p.bytesPerSecond, elapsed: 0, current: p.current)
        return head + BatchProgressLine.format(figures, width: max(40, width - TerminalWidth.of(head)))
    }
}

extension JobWords {
    static func noSuchJob(_ text: String) -> CommandError {
        CommandError(text.isEmpty ? "no jobs ('fetch NAME &' starts one)" : "no such job: \(SafeText.display(text)) ('jobs' lists them)")
    }
}
