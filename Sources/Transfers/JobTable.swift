import POSIX

/// The jobs of one shell session, numbered from 1 as they start (as a POSIX shell numbers them: the next
/// number is one past the highest still listed). A job stays listed until the prompt said how it ended.
/// Touched by the prompt's thread only; each job's own state is locked inside it.
public final class JobTable {
    public private(set) var jobs: [Job] = []
    private var threads: [Int: JoinableThread] = [:]

    public init() {}

    /// Starts `work` on a thread of its own as the next job; its `Ending` is what `work` returns.
    public func start(
        commandLine: String, remotePaths: Set<String>, progress: Job.Progress = Job.Progress(),
        _ work: @escaping @Sendable (Job) -> Job.Ending
    ) throws -> Job {
        let number = (jobs.map(\.number).max() ?? 0) + 1
        let job = Job(number: number, commandLine: commandLine, remotePaths: remotePaths, progress: progress)
        threads[number] = try JoinableThread(name: "job-\(number)") { job.finish(work(job)) }
        jobs.append(job)
        return job
    }

    public var running: [Job] { jobs.filter(\.isRunning) }

    /// The jobs that ended, in order, taken off the list (their threads joined).
    public func takeEnded() -> [(job: Job, ending: Job.Ending)] {
        var ended: [(Job, Job.Ending)] = []
        jobs.removeAll { job in
            guard let ending = job.ended else { return false }
            threads.removeValue(forKey: job.number)?.join()
            ended.append((job, ending))
            return true
        }
        return ended
    }

    /// `%N` or `N`; nil: the most recent job.
    public func job(_ text: String?) -> Job? {
        guard let text else { return jobs.last }
        let digits = text.hasPrefix("%") ? String(text.dropFirst()) : text
        guard let number = Int(digits) else { return nil }
        return jobs.first { $0.number == number }
    }

    /// The running job that holds one of `paths`, if any (two writers of one `.part` must never meet).
    public func holder(of paths: some Sequence<String>) -> Job? {
        let wanted = Set(paths)
        return running.first { !$0.remotePaths.isDisjoint(with: wanted) }
    }
}
