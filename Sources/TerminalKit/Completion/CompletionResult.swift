/// What one Tab does to the line: replace a range before the cursor, and perhaps list candidates.
public struct CompletionResult: Sendable, Hashable {
    /// The UTF-8 byte range of the line that is replaced; it ends at the cursor (often it is empty there).
    public let range: Range<Int>
    /// The text put in place of `range`.
    public let replacement: String
    /// The names to show when several match (empty when the completion was unique or nothing matched).
    public let candidates: [String]

    public init(range: Range<Int>, replacement: String, candidates: [String] = []) {
        self.range = range
        self.replacement = replacement
        self.candidates = candidates
    }

    /// Nothing to insert and nothing to list.
    public static func nothing(at cursor: Int) -> CompletionResult {
        CompletionResult(range: cursor..<cursor, replacement: "")
    }

    /// True when the Tab neither changes the line nor lists anything (the editor beeps).
    public var isEmpty: Bool { range.isEmpty && replacement.isEmpty && candidates.isEmpty }

    /// True when the Tab changes the line.
    public var changesLine: Bool { !(range.isEmpty && replacement.isEmpty) }

    /// The line after the completion and the new cursor (a UTF-8 byte offset).
    public func applied(to line: String) -> (line: String, cursor: Int) {
        let bytes = Array(line.utf8)
        let lower = min(range.lowerBound, bytes.count)
        let upper = min(max(range.upperBound, lower), bytes.count)
        let result = bytes[..<lower] + Array(replacement.utf8) + bytes[upper...]
        return (String(decoding: result, as: UTF8.self), lower + replacement.utf8.count)
    }
}
