/// A line that cannot be split into words, with the column to point at.
public struct GrammarError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        case unterminatedSingleQuote
        case unterminatedDoubleQuote
        case trailingBackslash
        case missingCommandAfterDash
        case ampersandWithoutCommand
        /// An unquoted `|`, `>`, `>>` or `<` word: a pipe or redirection, which the grammar has not.
        case pipeOrRedirection(String)
    }

    public let kind: Kind
    /// The 1-based column (in Unicode scalars) of the opening quote, the backslash or the dash.
    public let column: Int

    public init(_ kind: Kind, column: Int) {
        self.kind = kind
        self.column = column
    }

    /// The problem in a few words, without the column.
    public var message: String {
        switch kind {
        case .unterminatedSingleQuote: "unterminated single quote"
        case .unterminatedDoubleQuote: "unterminated double quote"
        case .trailingBackslash: "backslash at the end of the line escapes nothing"
        case .missingCommandAfterDash: "a command name must follow '-'"
        case .ampersandWithoutCommand: "'&' must follow a command (fetch NAME &)"
        case .pipeOrRedirection(let word):
            "'\(word)': mediashell's commands have no pipes or redirections; from your shell, "
                + "mediashell -c 'ls -1' | head (quote it, '\(word)', to name a file)"
        }
    }

    public var description: String { "column \(column): \(message)" }
}
