/// The single pass over a line's UTF-8 bytes that both the tokenizer and completion use.
///
/// It never fails: it records the first problem and, for completion, the state the line ends in
/// (inside a quote, after a backslash, in a comment, in the middle of a word).
public struct LineScanner {
    public enum Quote: Equatable {
        case none, single, double
    }

    public struct ScannedWord {
        public var text: [UInt8] = []
        /// The same word as a glob pattern: quoted or escaped wildcards are backslash-escaped.
        public var pattern: [UInt8] = []
        public var hasWildcard = false
        public var isQuoted = false
        public var startsWithBareDash = false
        public var start: Int
        public var column: Int
    }

    public struct ScannedStatement {
        public var words: [ScannedWord] = []
        /// Ended by `&`: run it as a job.
        public var runsInBackground = false
        /// The 1-based column of that `&`.
        public var ampersandColumn = 0
    }

    public struct Result {
        public var statements: [ScannedStatement] = [ScannedStatement()]
        public var firstError: GrammarError?
        /// The quote still open at the end of the input.
        public var openQuote: Quote = .none
        /// The byte offset of that open quote.
        public var openQuoteStart = 0
        /// A backslash at the very end still waits for its character.
        public var pendingBackslash = false
        public var endsInComment = false
        /// The input ends inside a word (not after a separator); that word is the last of the last statement.
        public var endsInsideWord = false
    }

    public static func scan(_ bytes: some Collection<UInt8>) -> Result {
        var result = Result()
        var current: ScannedWord?
        var quote = Quote.none
        var quoteColumn = 0
        var quoteStart = 0
        var escaping = false
        var escapeColumn = 0
        var inComment = false
        // A `#` that begins an argument: a file number when a digit follows (`info #3`), else a comment.
        var hash: (offset: Int, column: Int)?
        var column = 0  // scalar count of the bytes before `offset`

        func finishWord(_ result: inout Result, _ current: inout ScannedWord?) {
            if let word = current {
                result.statements[result.statements.count - 1].words.append(word)
                current = nil
            }
        }

        for (offset, byte) in bytes.enumerated() {
            if byte & 0xC0 != 0x80 { column += 1 }
            if inComment { continue }
            if let started = hash {
                hash = nil
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                    inComment = true
                    continue
                }
                current = ScannedWord(start: started.offset, column: started.column)
                current!.append(bare: UInt8(ascii: "#"))
            }

            if escaping {
                escaping = false
                if quote == .double {
                    // Inside double quotes only \" \\ \$ are escapes; any other backslash stays.
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "$") {
                        current!.append(quoted: byte)
                    } else {
                        current!.append(quoted: UInt8(ascii: "\\"))
                        current!.append(quoted: byte)
                    }
                } else {
                    current!.append(quoted: byte)
                }
                continue
            }

            switch quote {
            case .single:
                if byte == UInt8(ascii: "'") { quote = .none } else { current!.append(quoted: byte) }
                continue
            case .double:
                if byte == UInt8(ascii: "\"") {
                    quote = .none
                } else if byte == UInt8(ascii: "\\") {
                    escaping = true
                    escapeColumn = column
                } else {
                    current!.append(quoted: byte)
                }
                continue
            case .none:
                break
            }

            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                finishWord(&result, &current)
            case UInt8(ascii: ";"):
                finishWord(&result, &current)
                result.statements.append(ScannedStatement())
            case UInt8(ascii: "&"):
                // As in a POSIX shell: `CMD &` runs CMD as a job, and `&` separates it from what follows.
                finishWord(&result, &current)
                result.statements[result.statements.count - 1].runsInBackground = true
                result.statements[result.statements.count - 1].ampersandColumn = column
                result.statements.append(ScannedStatement())
            case UInt8(ascii: "#") where current == nil:
                if result.statements[result.statements.count - 1].words.isEmpty {
                    inComment = true
                } else {
                    hash = (offset, column)
                }
            default:
                if current == nil {
                    current = ScannedWord(start: offset, column: column)
                    if byte == UInt8(ascii: "-") { current!.startsWithBareDash = true }
                }
                switch byte {
                case UInt8(ascii: "'"):
                    quote = .single
                    quoteColumn = column
                    quoteStart = offset
                    current!.isQuoted = true
                case UInt8(ascii: "\""):
                    quote = .double
                    quoteColumn = column
                    quoteStart = offset
                    current!.isQuoted = true
                case UInt8(ascii: "\\"):
                    escaping = true
                    escapeColumn = column
                    current!.isQuoted = true
                default:
                    current!.append(bare: byte)
                }
            }
        }

        result.endsInsideWord = current != nil
        result.openQuote = quote
        result.openQuoteStart = quoteStart
        result.pendingBackslash = escaping
        result.endsInComment = inComment || hash != nil
        if escaping && quote == .none {
            result.firstError = GrammarError(.trailingBackslash, column: escapeColumn)
        } else if quote == .single {
            result.firstError = GrammarError(.unterminatedSingleQuote, column: quoteColumn)
        } else if quote == .double {
            result.firstError = GrammarError(.unterminatedDoubleQuote, column: quoteColumn)
        }
        finishWord(&result, &current)
        return result
    }
}

extension LineScanner.ScannedWord {
    public static let wildcards: Set<UInt8> = [UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "]")]

    public mutating func append(bare byte: UInt8) {
        text.append(byte)
        pattern.append(byte)
        if byte == UInt8(ascii: "*") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "[") {
            hasWildcard = true
        }
    }

    public mutating func append(quoted byte: UInt8) {
        text.append(byte)
        if Self.wildcards.contains(byte) || byte == UInt8(ascii: "\\") {
            pattern.append(UInt8(ascii: "\\"))
        }
        pattern.append(byte)
    }

    public var word: Word {
        let glob = hasWildcard ? GlobPattern(String(decoding: pattern, as: UTF8.self)) : nil
        return Word(
            String(decoding: text, as: UTF8.self), column: column, isQuoted: isQuoted,
            glob: glob?.hasWildcards == true ? glob : nil)
    }
}
