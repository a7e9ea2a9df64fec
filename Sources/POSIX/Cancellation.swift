/// The one way to say "stop" to work under way, in every layer: a transfer asks it between chunks, a wait
/// for the session's turn a few times a second, a child process's run between reads. It is cancelled by
/// `cancel()` (a job's `kill`, a stream closed), or when the condition it was made with says so (Ctrl-C
/// at the prompt: `InterruptSource.cancellation`), and never uncancelled.
public final class Cancellation: Sendable {
    private let cancelled = Locked(false)
    private let condition: (@Sendable () -> Bool)?

    /// A cancellation that `cancel()` stops, and `condition` too when given (asked on every `isCancelled`,
    /// so it must be cheap: a flag's read).
    public init(when condition: (@Sendable () -> Bool)? = nil) { self.condition = condition }

    /// One that nothing stops: for work that runs to its end.
    public static var never: Cancellation { Cancellation() }

    /// Stops the work: every `isCancelled` from now on is true.
    public func cancel() { cancelled.withLock { $0 = true } }

    public var isCancelled: Bool { cancelled.withLock { $0 } || (condition?() ?? false) }

    /// Throws `CancellationError` once cancelled: for work to call between its steps.
    public func check() throws(CancellationError) {
        if isCancelled { throw CancellationError() }
    }
}
