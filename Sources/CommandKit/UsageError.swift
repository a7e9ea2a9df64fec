import TerminalKit

/// A command line that names an unknown command or breaks its command's usage.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The command as the user typed it (`get`), or nil when the command itself is unknown.
    public let command: String?
    /// What is wrong, e.g. `unknown option -x`.
    public let message: String
    /// The 1-based column of the offending word, when there is one.
    public let column: Int?

    public init(command: String?, _ message: String, column: Int? = nil) {
        self.command = command
        self.message = message
        self.column = column
    }

    /// `fetch: unknown option -x`
    public var description: String {
        command.map { "\(SafeText.display($0)): \(message)" } ?? message
    }
}
