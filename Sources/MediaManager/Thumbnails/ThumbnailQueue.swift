import Foundation

/// A queue of thumbnail fetches, run one at a time in order on a worker thread (the device answers one
/// request at a time anyway), like the seed's fetch-task scheduler: tasks can be moved to the front or
/// the end, the queue suspended and resumed, and optionally suspended by itself after a failure.
public final class ThumbnailQueue<Key: Hashable & Sendable>: @unchecked Sendable {
    public typealias Completion = @Sendable (Key, Result<[UInt8], Error>) -> Void

    /// One fetch and everyone waiting for it.
    private struct Task {
        var key: Key
        var completions: [Completion]

        func complete(_ result: Result<[UInt8], Error>) {
            for completion in completions { completion(key, result) }
        }
    }

    private let condition = NSCondition()
    private var tasks: [Task] = []
    private var suspended = false
    private var running: Key?
    private var workerActive = false
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
        condition.lock()
        if let index = tasks.firstIndex(where: { $0.key == key }) {
            tasks[index].completions.append(completion)
        } else {
            tasks.append(Task(key: key, completions: [completion]))
        }
        startWorkerLocked()
        condition.unlock()
    }

    /// The keys waiting, in the order they will run (the running one excluded).
    public var pending: [Key] {
        condition.lock()
        defer { condition.unlock() }
        return tasks.map(\.key)
    }

    public var isSuspended: Bool {
        condition.lock()
        defer { condition.unlock() }
        return suspended
    }

    public func moveToFront(_ key: Key) { move(key, toFront: true) }
    public func moveToEnd(_ key: Key) { move(key, toFront: false) }

    private func move(_ key: Key, toFront: Bool) {
        condition.lock()
        let moving = tasks.filter { $0.key == key }
        tasks.removeAll { $0.key == key }
        tasks = toFront ? moving + tasks : tasks + moving
        condition.unlock()
    }

    public func suspend() {
        condition.lock()
        suspended = true
        condition.unlock()
    }

    public func resume() {
        condition.lock()
        suspended = false
        startWorkerLocked()
        condition.broadcast()
        condition.unlock()
    }

    /// Drops every pending task; each completes with `CancellationError`.
    public func cancelAll() {
        condition.lock()
        let dropped = tasks
        tasks.removeAll()
        condition.broadcast()
        condition.unlock()
        for task in dropped { task.complete(.failure(CancellationError())) }
    }

    /// Waits until nothing is pending or running (or the queue is suspended), up to `timeout`.
    @discardableResult
    public func waitUntilIdle(timeout: TimeInterval) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while running != nil || (!tasks.isEmpty && !suspended) {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    private func startWorkerLocked() {
        guard !workerActive, !suspended, !tasks.isEmpty else { return }
        workerActive = true
        let thread = Thread { [self] in work() }
        thread.name = "thumbnail-queue"
        thread.start()
    }

    private func work() {
        while true {
            condition.lock()
            guard !suspended, !tasks.isEmpty else {
                workerActive = false
                condition.broadcast()
                condition.unlock()
                return
            }
            let task = tasks.removeFirst()
            running = task.key
            condition.unlock()

            let result = Result { try fetch(task.key) }
            task.complete(result)

            condition.lock()
            running = nil
            if case .failure = result, suspendAfterFailure { suspended = true }
            condition.broadcast()
            condition.unlock()
        }
    }
}
