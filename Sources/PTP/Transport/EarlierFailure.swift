/// The failure that left a connection out of step, kept to say why the connection is unusable now: the
/// operation it happened in and the error (the transport's own, or one of the caller's data source or sink).
public struct EarlierFailure: Sendable, CustomStringConvertible {
    public let operation: OperationCode
    public let error: any Error

    public init(operation: OperationCode, error: any Error) {
        self.operation = operation
        self.error = error
    }

    /// A transport error says its operation itself; another error is named after the operation.
    public var description: String { error is PTPError ? "\(error)" : "\(operation): \(error)" }
}

extension EarlierFailure {
    /// Runs `body` (a transaction of `operation`); its failure is handed to `keep` as this operation's (a
    /// transport remembers the first, to say why it is unusable later), then thrown on.
    public static func noting<T>(_ operation: OperationCode, keep: (EarlierFailure) -> Void, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            keep(EarlierFailure(operation: operation, error: error))
            throw error
        }
    }
}
