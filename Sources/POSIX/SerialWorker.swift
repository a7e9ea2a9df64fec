/// A thread of its own that runs the work given to it one piece at a time, in the order given: one
/// destination's disk writes, say, while the caller goes on with another's. What is queued is bounded
/// (`maxQueuedCost`, in the caller's unit, bytes for writes): the caller waits when it gets that far ahead,
/// so a fast source never piles up memory in front of a slow disk. `drain` waits until everything given so
/// far has run; `close` drains and ends the thread. When no thread can be started the work runs at once, on
/// the caller's thread, as it would without one.
public final class SerialWorker: Sendable {
    private struct Job {
        let cost: Int
        let work: @Sendable () -> Void
    }

    private struct State {
        /// Queued jobs from `next` on; a taken one is nil, so that what it holds (a chunk's bytes) is freed
        /// as soon as it has run, not when the array is next trimmed.
        var jobs: [Job?] = []
        /// The first job not taken yet (jobs before it are done or running).
        var next = 0
        /// What the jobs queued and the one running cost.
        var queuedCost = 0
        var running = false
        var closing = false

        var isIdle: Bool { next == jobs.count && !running }
    }

    private let state = LockedCondition(State())
    private let maxQueuedCost: Int
    private let thread: Locked<JoinableThread?> = Locked(nil)

    /// Starts the thread, named `name`. A piece of work costs at least `minimumCost`, so that many pieces
    /// of no bytes are bounded too.
    public init(name: String, maxQueuedCost: Int) {
        self.maxQueuedCost = max(1, maxQueuedCost)
        // The thread holds the queue, not the worker: a worker no longer referenced is closed by its deinit.
        let state = state
        let started = try? JoinableThread(name: name) { Self.runJobs(state) }
        thread.withLock { $0 = started }
    }

    /// The least a piece of work is counted as costing.
    public static let minimumCost = 4096

    /// Queues `work` to run after everything queued before it, waiting first while the work queued costs
    /// more than the bound (a piece that costs more than the bound alone still runs, alone).
    public func submit(cost: Int = 0, _ work: @escaping @Sendable () -> Void) {
        guard hasThread else {
            work()
            return
        }
        let cost = max(cost, Self.minimumCost)
        let bound = maxQueuedCost
        state.wait(until: nil, for: { $0.queuedCost == 0 || $0.queuedCost + cost <= bound }) { state in
            state.jobs.append(Job(cost: cost, work: work))
            state.queuedCost += cost
        }
    }

    /// Waits until every piece of work given so far has run.
    public func drain() {
        guard hasThread else { return }
        _ = state.wait(until: nil) { $0.isIdle }
    }

    /// Runs what is queued, then ends the thread and waits for it to be gone. Work given after this runs at
    /// once on the caller's thread.
    public func close() {
        let ending = thread.withLock { current -> JoinableThread? in
            defer { current = nil }
            return current
        }
        guard let ending else { return }
        state.change { $0.closing = true }
        ending.join()
    }

    deinit { close() }

    private var hasThread: Bool { thread.withLock { $0 != nil } }

    private static func runJobs(_ state: LockedCondition<State>) {
        while true {
            var current: Job? = state.wait(until: nil, for: { $0.next < $0.jobs.count || $0.closing }) { state -> Job? in
                guard state.next < state.jobs.count else { return nil }
                let job = state.jobs[state.next]
                state.jobs[state.next] = nil
                state.next += 1
                state.running = true
                // The taken jobs are dropped now and then, so the array does not grow for a whole run.
                if state.next >= 1024 {
                    state.jobs.removeFirst(state.next)
                    state.next = 0
                }
                return job
            } ?? nil
            // (No deadline: the wait ends with a job, or with nil once closing and nothing is left.)
            guard let cost = current?.cost else { return }
            current?.work()
            // Released before anyone hears it ran: after `drain`, nothing a piece held is still held.
            current = nil
            state.change { state in
                state.running = false
                state.queuedCost -= cost
            }
        }
    }
}
