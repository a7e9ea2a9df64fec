/// Splits a line into commands and words, POSIX style.
///
/// Single quotes keep everything literally; double quotes keep everything but `\"`, `\\` and `\$`;
/// a backslash outside quotes keeps the next character; `;` separates commands; `#` at the start of a word
/// starts a comment, except `#` and a digit beginning an argument, which is a word (file numbers: `info #3`,
/// `fetch #1-5`); a leading `-` on a command name marks its failure as ignored; `&` after a command runs it
/// as a job (and separates it from the next, as `;` does); empty commands are skipped.
public enum Tokenizer {
    /// The commands of `line`, or a `GrammarError` with the column of the first problem.
    public static func statements(in line: String) throws(GrammarError) -> [Statement] {
        let scan = LineScanner.scan(line.utf8)
        if let error = scan.firstError { throw error }
        var statements: [Statement] = []
        for scanned in scan.statements {
            guard !scanned.words.isEmpty else {
                if scanned.runsInBackground { throw GrammarError(.ampersandWithoutCommand, column: scanned.ampersandColumn) }
                continue
            }
            var words = scanned.words
            let statementColumn = words[0].column
            if let operatorWord = words.first(where: { !$0.isQuoted && Self.pipesAndRedirections.contains($0.text) }) {
                throw GrammarError(.pipeOrRedirection(String(decoding: operatorWord.text, as: UTF8.self)), column: operatorWord.column)
            }
            var ignoresFailure = false
            if words[0].startsWithBareDash {
                ignoresFailure = true
                words[0].text.removeFirst()
                words[0].pattern.removeFirst()
                words[0].column += 1
                if words[0].text.isEmpty && !words[0].isQuoted {
                    throw GrammarError(.missingCommandAfterDash, column: statementColumn)
                }
            }
            statements.append(
                Statement(
                    words: words.map(\.word), ignoresFailure: ignoresFailure, column: statementColumn,
                    runsInBackground: scanned.runsInBackground))
        }
        return statements
    }

    /// Words a POSIX shell would take for a pipe or a redirection: refused with a hint, rather than taken
    /// for a file name (`ls -1 | head` said "no such file or folder: |").
    static let pipesAndRedirections: Set<[UInt8]> = [Array("|".utf8), Array(">".utf8), Array(">>".utf8), Array("<".utf8)]

    /// The words of `line` as one list, ignoring `;` boundaries and `-` prefixes; handy for arguments.
    public static func words(in line: String) throws(GrammarError) -> [Word] {
        let scan = LineScanner.scan(line.utf8)
        if let error = scan.firstError { throw error }
        return scan.statements.flatMap { $0.words.map(\.word) }
    }
}
