import Foundation
import POSIX

/// A queue of thumbnail fetches, run one at a time in order on a worker thread (the device answers one
/// request at a time anyway), like the seed's fetch-task scheduler: tasks can be moved to the front or
/// the end, the queue suspended and resumed, and optionally suspended by itself after a failure.
public final class ThumbnailQueue<Key: Hashable & Sendable>: Sendable {
    public typealias Completion = @Sendable (Key, Result<[UInt8], Error>) -> Void

    /// One fetch and everyone waiting for it.
    private struct Task: Sendable {
        var key: Key
        var completions: [Completion]

        func complete(_ result: Result<[UInt8], Error>) {
            for completion in completions { completion(key, result) }
        }
    }

    private struct State {
        var tasks: [Task] = []
        var suspended = false
        var running: Key?
        var workerActive = false

        /// Marks the worker started when there is work for one and none runs; says whether to start it.
        mutating func needsWorker() -> Bool {
            guard !workerActive, !suspended, !tasks.isEmpty else { return false }
            workerActive = true
            return true
        }
    }

    private let state = LockedCondition(State())
    private let fetch: @Sendable (Key) throws -> [UInt8]
    /// When set, a failed fetch suspends the queue (the seed's suspendAfterSingleFetchTaskFailure).
    public let suspendAfterFailure: Bool

    public init(suspendAfterFailure: Bool = false, fetch: @escaping @Sendable (Key) throws -> [UInt8]) {
        self.fetch = fetch
        self.suspendAfterFailure = suspendAfterFailure
    }

    /// Adds a fetch at the end; a key already pending keeps its place and gets the new completion too, so
    /// the camera is asked once. (A key that is running now is fetched again: its answer may be on its way.)
    public func enqueue(_ key: Key, completion: @escaping Completion) {
        let start = state.change { state -> Bool in
            if let index = state.tasks.firstIndex(where: { $0.key == key }) {
                state.tasks[index].completions.append(completion)
            } else {
                state.tasks.append(Task(key: key, completions: [completion]))
            }
            return state.needsWorker()
        }
        if start { startWorker() }
    }

    /// The keys waiting, in the order they will run (the running one excluded).
    public var pending: [Key] { state.withLock { $0.tasks.map(\.key) } }

    public var isSuspended: Bool { state.withLock { $0.suspended } }

    public func moveToFront(_ key: Key) { move(key, toFront: true) }
    public func moveToEnd(_ key: Key) { move(key, toFront: false) }

    private func move(_ key: Key, toFront: Bool) {
        state.withLock { state in
            let moving = state.tasks.filter { $0.key == key }
            state.tasks.removeAll { $0.key == key }
            state.tasks = toFront ? moving + state.tasks : state.tasks + moving
        }
    }

    public func suspend() { state.withLock { $0.suspended = true } }

    public func resume() {
        let start = state.change { state -> Bool in
            state.suspended = false
            return state.needsWorker()
        }
        if start { startWorker() }
    }

    /// Drops every pending task; each completes with `CancellationError`.
    public func cancelAll() {
        let dropped = state.change { state -> [Task] in
            let dropped = state.tasks
            state.tasks.removeAll()
            return dropped
        }
        for task in dropped { task.complete(.failure(CancellationError())) }
    }

    /// Waits until nothing is pending or running (or the queue is suspended), up to `timeout`.
    @discardableResult
    public func waitUntilIdle(timeout: Double) -> Bool {
        state.wait(until: .after(timeout), for: { $0.running == nil && ($0.tasks.isEmpty || $0.suspended) })
    }

    private func startWorker() {
        let thread = Thread { [self] in work() }
        thread.name = "thumbnail-queue"
        thread.start()
    }

    private func work() {
        while true {
            let next = state.change { state -> Task? in
                guard !state.suspended, !state.tasks.isEmpty else {
                    state.workerActive = false
                    return nil
                }
                let task = state.tasks.removeFirst()
                state.running = task.key
                return task
            }
            guard let task = next else { return }
            let result = Result { try fetch(task.key) }
            task.complete(result)
            let failed: Bool
            if case .failure = result { failed = true } else { failed = false }
            state.change { state in
                state.running = nil
                if failed && suspendAfterFailure { state.suspended = true }
            }
        }
    }
}
