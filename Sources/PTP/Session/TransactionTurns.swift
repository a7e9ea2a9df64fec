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
    @TaskLocal static var callerCancellation: Cancellation? = nil

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
/// times a second (never with the gate's lock held), so Ctrl-C ends a wait for the turn too.
final class TransactionTurns: Sendable {
    private struct State {
        var busy = false
        var interactiveWaiting = 0
        var backgroundWaiting = 0

        func mayGo(interactive: Bool) -> Bool { !busy && (interactive || interactiveWaiting == 0) }
    }

    private let state = LockedCondition(State())

    /// How often a waiting caller with a cancellation test asks it.
    static let cancellationPoll: Double = 0.05

    /// Runs `body` once it is the caller's turn; throws `CancellationError` when `cancellation` says so
    /// before then.
    func run<T>(_ priority: TransactionPriority, cancellation: Cancellation? = nil, _ body: () throws -> T) throws -> T {
        try take(priority, cancellation: cancellation)
        defer { release() }
        return try body()
    }

    /// Runs `body` (bookkeeping, no transaction) in an interactive turn that cannot be cancelled.
    func exclusively<T>(_ body: () -> T) -> T {
        // Without a cancellation test the wait cannot throw.
        do { try take(.interactive, cancellation: nil) } catch { preconditionFailure("an uncancellable turn threw \(error)") }
        defer { release() }
        return body()
    }

    /// Callers waiting for a turn now, of each priority (tests, and `jobs` in the shell).
    var waiting: (interactive: Int, background: Int) {
        state.withLock { ($0.interactiveWaiting, $0.backgroundWaiting) }
    }

    /// Returns once `predicate` holds for the waiting counts, or after `timeout` seconds; says which.
    /// (Tests wait on it to know a caller is queued, rather than sleeping.) `predicate` runs with the gate's
    /// lock held: it must only look at the counts.
    func wait(timeout: Double, until predicate: ((interactive: Int, background: Int)) -> Bool) -> Bool {
        state.wait(until: .after(timeout), for: { predicate(($0.interactiveWaiting, $0.backgroundWaiting)) })
    }

    private func take(_ priority: TransactionPriority, cancellation: Cancellation?) throws {
        let interactive = priority == .interactive
        state.change { state in
            if interactive { state.interactiveWaiting += 1 } else { state.backgroundWaiting += 1 }
        }
        defer {
            state.change { state in
                if interactive { state.interactiveWaiting -= 1 } else { state.backgroundWaiting -= 1 }
            }
        }
        while true {
            if let cancellation, cancellation.isCancelled { throw CancellationError() }
            let slice: Deadline? = cancellation == nil ? nil : .after(Self.cancellationPoll)
            let taken: Void? = state.wait(until: slice, for: { $0.mayGo(interactive: interactive) }, then: { $0.busy = true })
            if taken != nil { return }
        }
    }

    private func release() {
        state.change { $0.busy = false }
    }
}
