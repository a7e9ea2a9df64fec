/// What kind of failure an error is, so that a caller can decide what to do (reconnect, retry, stop the
/// batch, add a hint) by switching on a case, never by reading the error's words. Every module's errors say
/// which category they are (`CategorizedError`); the shell alone turns them into sentences.
public enum FailureCategory: Sendable, Hashable, CaseIterable {
    /// The device (or a lock holder) is occupied: the same request may work later (PTP DeviceBusy).
    case busy
    /// The link to the device is gone: unplugged, closed, reset. The session has to be opened again.
    case disconnected
    /// No answer within the time allowed.
    case timedOut
    /// Someone asked to stop (Ctrl-C, `kill %N`, a closed job). Spelled `CancellationError` everywhere.
    case cancelled
    /// The device or this program does not offer what was asked (an operation it never listed).
    case notSupported
    /// The device answered, but wrongly: an error response, a malformed dataset, a broken sequence, a size
    /// that does not match.
    case deviceFault
    /// The local system refused: a file, a folder, a socket, a child process.
    case localIO
    /// Nothing is at that address or name: no such camera, folder or file.
    case notFound
    /// A file is already where this would write, and nothing may replace it.
    case alreadyExists
    /// What was asked does not make sense here: a bad argument, a command that does not apply now.
    case invalidRequest
    /// None of the above.
    case other
}

/// An error that says which `FailureCategory` it is.
public protocol CategorizedError: Error {
    var category: FailureCategory { get }
}

extension Error {
    /// This error's category: its own for a `CategorizedError`, `.cancelled` for the one cancellation error
    /// (`CancellationError`), `.other` for anything else.
    public var failureCategory: FailureCategory {
        if let categorized = self as? any CategorizedError { return categorized.category }
        if self is CancellationError { return .cancelled }
        return .other
    }

    /// Someone asked to stop (the one question every caller asks the same way).
    public var isCancellation: Bool { failureCategory == .cancelled }
}
