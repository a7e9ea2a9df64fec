import TerminalKit

/// A file argument written as the numbers of rows of the last numbered listing (`ls -n`, `set numbers on`):
/// `#3`, `#1-5`, `#1,3,5-7`. The line's grammar keeps such a word from being a comment: `#` and a digit
/// beginning an argument. A quoted or escaped `#` is a name (`'#3.JPG'`).
public struct FileNumbers: Sendable, Hashable {
    /// The ranges as written, each from 1 up.
    public let ranges: [ClosedRange<Int>]

    /// The most digits a number may have: more is no row of any listing.
    static let longestNumber = 9

    /// The numbers `word` gives; nil when it is not written as file numbers (quoted, or not `#` and a
    /// digit); `Malformed` when it is, but is not `#N`, `#N-M` or a list of them.
    public init?(_ word: Word) throws(Malformed) {
        guard Self.isWritten(word) else { return nil }
        var ranges: [ClosedRange<Int>] = []
        for part in word.text.dropFirst().split(separator: ",", omittingEmptySubsequences: false) {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false)
            let numbers = ends.map { end -> Int? in
                guard !end.isEmpty, end.count <= Self.longestNumber, end.allSatisfy({ digit in digit.isASCII && digit.isNumber }) else { return nil }
                return Int(end)
            }
            guard (1...2).contains(numbers.count), let first = numbers.first ?? nil, let last = numbers.last ?? nil,
                first >= 1, first <= last
            else { throw Malformed(text: word.text) }
            ranges.append(first...last)
        }
        self.ranges = ranges
    }

    /// True when `word` is written as file numbers: unquoted, `#` then a digit.
    public static func isWritten(_ word: Word) -> Bool {
        guard !word.isQuoted, !word.isGlob else { return false }
        let bytes = word.text.utf8
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "#") else { return false }
        let second = bytes[bytes.index(after: bytes.startIndex)]
        return second >= UInt8(ascii: "0") && second <= UInt8(ascii: "9")
    }

    /// The highest number named.
    public var highest: Int { ranges.map(\.upperBound).max() ?? 0 }

    /// Each number named, in the order written, each once. Call after checking `highest` against the
    /// listing: it is as long as the ranges are.
    public var numbers: [Int] {
        var seen = Set<Int>()
        return ranges.flatMap { $0 }.filter { seen.insert($0).inserted }
    }

    /// A word that begins like file numbers but is none (`#3x`, `#5-2`, `#0`).
    public struct Malformed: Error, Sendable, Hashable, CustomStringConvertible {
        public let text: String
        public var description: String {
            "'\(SafeText.display(text))' is no file number: write #N, #N-M or a list such as #1,3,5-7 (from 1), "
                + "or quote a name that begins with #"
        }
    }
}
