import Foundation
import POSIX

/// How a caller's transactions take their turn on a session. Interactive (the default: a listing, `info`,
/// a thumbnail, playback's reads) goes before background (a job's chunks), so that a person waits at most
/// for the one background transaction already in flight.
public enum TransactionPriority: Sendable, Equatable {
    case interactive
    case background
}

extension PTPSession {
    /// The priority of the transactions this thread sends: set for a scope by `asBackground`.
    @TaskLocal static var callerPriority = TransactionPriority.interactive
    /// The `whileCancellable` test of this thread's scope: a job's cancel stops only the job, and Ctrl-C
    /// at the prompt stops only the prompt's command.
    @TaskLocal static var callerCancellation: (@Sendable () -> Bool)? = nil

    /// Runs `body` with every transaction it sends (on this thread, on any session) marked background: each
    /// one waits while an interactive transaction is waiting for its turn. For jobs, whose chunks are
    /// small enough (`ChunkSizing`) that the wait they impose on an interactive request is short.
    public static func asBackground<T>(_ body: () throws -> T) rethrows -> T {
        try $callerPriority.withValue(.background, operation: body)
    }

    /// The priority the calling thread's transactions have now.
    public static var currentPriority: TransactionPriority { callerPriority }
}

/// The turn gate of one session: one transaction at a time; when the session is free, an interactive
/// caller waiting goes before any background one. Waiting callers with a cancellation test ask it a few
/// times a second, so Ctrl-C ends a wait for the turn too.
final class TransactionTurns: @unchecked Sendable {
    // Safety: `busy` and the waiting counts are only touched with `condition` held.
    private let condition = NSCondition()
    private var busy = false
    private var interactiveWaiting = 0
    private var backgroundWaiting = 0

    /// How often a waiting caller with a cancellation test asks it.
    static let cancellationPoll: TimeInterval = 0.05

    /// Runs `body` once it is the caller's turn; throws `CancellationError` when `cancelled` says so
    /// before then.
    func run<T>(_ priority: TransactionPriority, cancelled: (() -> Bool)? = nil, _ body: () throws -> T) throws -> T {
        try take(priority, cancelled: cancelled)
        defer { release() }
        return try body()
    }

    /// Runs `body` (bookkeeping, no transaction) in an interactive turn that cannot be cancelled.
    func exclusively<T>(_ body: () -> T) -> T {
        // Without a cancellation test the wait cannot throw.
        do { try take(.interactive, cancelled: nil) } catch { preconditionFailure("an uncancellable turn threw \(error)") }
        defer { release() }
        return body()
    }

    /// Callers waiting for a turn now, of each priority (tests, and `jobs` in the shell).
    var waiting: (interactive: Int, background: Int) {
        condition.withLock { (interactiveWaiting, backgroundWaiting) }
    }

    /// Returns once `predicate` holds for the waiting counts, or after `timeout` seconds; says which.
    /// (Tests wait on it to know a caller is queued, rather than sleeping.)
    func wait(timeout: TimeInterval, until predicate: ((interactive: Int, background: Int)) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate((interactiveWaiting, backgroundWaiting)) {
            if !condition.wait(until: deadline) { return predicate((interactiveWaiting, backgroundWaiting)) }
        }
        return true
    }

    private func take(_ priority: TransactionPriority, cancelled: (() -> Bool)?) throws {
        condition.lock()
        defer { condition.unlock() }
        let interactive = priority == .interactive
        if interactive { interactiveWaiting += 1 } else { backgroundWaiting += 1 }
        condition.broadcast()
        defer {
            if interactive { interactiveWaiting -= 1 } else { backgroundWaiting -= 1 }
            condition.broadcast()
        }
        while busy || (!interactive && interactiveWaiting > 0) {
            if let cancelled {
                if cancelled() { throw CancellationError() }
                _ = condition.wait(until: Date(timeIntervalSinceNow: Self.cancellationPoll))
            } else {
                condition.wait()
            }
        }
        busy = true
    }

    private func release() {
        condition.withLock {
            busy = false
            condition.broadcast()
        }
    }
}
