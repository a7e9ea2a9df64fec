/// One shell word after quotes and escapes are removed, with where it came from.
public struct Word: Sendable, Hashable, CustomStringConvertible {
    /// The word's text with quotes and escapes removed.
    public let text: String
    /// The 1-based column (in Unicode scalars) where the word starts in its line.
    public let column: Int
    /// True when any part of the word was quoted or backslash-escaped.
    public let isQuoted: Bool
    /// The glob built from the unquoted wildcards in the word, or nil when the word names one thing.
    public let glob: GlobPattern?

    /// True when the word holds an unquoted `*`, `?` or `[...]` and should be matched against names.
    public var isGlob: Bool { glob != nil }

    public init(_ text: String, column: Int = 1, isQuoted: Bool = false, glob: GlobPattern? = nil) {
        self.text = text
        self.column = column
        self.isQuoted = isQuoted
        self.glob = glob
    }

    public var description: String { text }
}

/// One command of a line: its words and whether a failure of it should be ignored.
public struct Statement: Sendable, Hashable {
    /// The words, the command name first (without a leading `-`).
    public let words: [Word]
    /// True when the command name was written with a leading `-` (`-rm x`): its failure does not stop a script.
    public let ignoresFailure: Bool
    /// The 1-based column where the statement starts (its `-` if any).
    public let column: Int
    /// True when the statement ended in `&`: it runs as a job.
    public let runsInBackground: Bool

    public init(words: [Word], ignoresFailure: Bool = false, column: Int = 1, runsInBackground: Bool = false) {
        self.words = words
        self.ignoresFailure = ignoresFailure
        self.column = column
        self.runsInBackground = runsInBackground
    }
}
