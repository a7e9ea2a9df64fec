import CommandKit
import TerminalKit

extension Interpreter {
    /// Makes `name` run `body`. A name of the table's commands is refused, never silently shadowed;
    /// the body must be commands the grammar reads.
    func defineAlias(_ name: String, _ body: String) throws {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic,
            name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" })
        else { throw CommandError("an alias name is letters, digits, - and _, starting with a letter: \(SafeText.display(name))") }
        if table.command(named: name) != nil {
            throw CommandError("'\(name)' is a mediashell command; an alias cannot replace it (choose another name)")
        }
        do {
            _ = try Tokenizer.statements(in: body)
        } catch {
            throw CommandError("the commands of \(name) do not read: column \(error.column): \(error.message)")
        }
        aliases[name] = body
    }

    /// The statements with each alias replaced by its commands: `$1`…`$9` and `$@` words filled with the
    /// words typed after it (appended when the body names none). Aliases may use aliases, a few deep.
    func expandingAliases(_ statements: [Statement], depth: Int = 0) throws(UsageError) -> [Statement] {
        guard !aliases.isEmpty else { return statements }
        var result: [Statement] = []
        for statement in statements {
            guard let name = statement.words.first, !name.isQuoted, let body = aliases[name.text] else {
                result.append(statement)
                continue
            }
            guard depth < 8 else { throw UsageError(command: name.text, "aliases nest too deep (one calls itself?)") }
            let given = Array(statement.words.dropFirst())
            let parsed: [Statement]
            do {
                parsed = try Tokenizer.statements(in: body)
            } catch {
                throw UsageError(command: name.text, "its commands do not read: \(error.message)")
            }
            var usedArguments = false
            var expanded: [Statement] = parsed.map { inner in
                var words: [Word] = []
                for word in inner.words {
                    if !word.isQuoted, word.text == "$@" {
                        words += given
                        usedArguments = true
                    } else if !word.isQuoted, word.text.count == 2, word.text.first == "$",
                        let digit = word.text.last?.wholeNumberValue, digit >= 1
                    {
                        if digit <= given.count { words.append(given[digit - 1]) }
                        usedArguments = true
                    } else {
                        words.append(word)
                    }
                }
                return Statement(
                    words: words, ignoresFailure: inner.ignoresFailure || statement.ignoresFailure, column: statement.column,
                    runsInBackground: inner.runsInBackground)
            }
            if !usedArguments, let last = expanded.popLast() {
                expanded.append(Statement(
                    words: last.words + given, ignoresFailure: last.ignoresFailure, column: last.column,
                    runsInBackground: last.runsInBackground))
            }
            // `ALIAS &` runs the alias's last command as a job.
            if statement.runsInBackground, let last = expanded.popLast() {
                expanded.append(Statement(
                    words: last.words, ignoresFailure: last.ignoresFailure, column: last.column, runsInBackground: true))
            }
            result += try expandingAliases(expanded.filter { !$0.words.isEmpty }, depth: depth + 1)
        }
        return result
    }
}
