/// How a command ended when it did not throw.
public enum CommandOutcome: Sendable, Equatable {
    case success
    /// It failed and already said why (a script stops here unless `errexit` is off).
    case failed
    /// Ctrl-C stopped it and it said where; the rest of the line and of a script does not run.
    case interrupted

    /// `.failed` when `failures` is more than zero.
    public static func failed(if failures: Int) -> CommandOutcome { failures > 0 ? .failed : .success }
}
