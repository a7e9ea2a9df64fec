import CommandKit
import Foundation
import MediaManager
import POSIX
import TerminalKit
import Transfers

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
        output.note("[\(job.number)] \(line)")
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
            output.note(JobWords.endLine(job, ending))
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

extension JobWords {
    static func noSuchJob(_ text: String) -> CommandError {
        CommandError(text.isEmpty ? "no jobs ('fetch NAME &' starts one)" : "no such job: \(SafeText.display(text)) ('jobs' lists them)")
    }
}
