import TerminalKit

extension CommandTable {
    /// Checks a statement against its command: options (`-l -t`, `-lt`, `--json`, `-o DIR`, `-oDIR`,
    /// `--output=DIR`, `--` ending options, options anywhere), argument counts and argument syntax.
    public func invocation(for statement: Statement) throws(UsageError) -> Invocation {
        guard let nameWord = statement.words.first else {
            throw UsageError(command: nil, "empty command")
        }
        guard let spec = command(named: nameWord.text) else {
            if nameWord.text.hasPrefix("!") {
                throw UsageError(
                    command: nil, "'!' runs the rest of a line in the local shell: start the line with it",
                    column: nameWord.column)
            }
            var message = "unknown command '\(SafeText.display(nameWord.text))'"
            if let suggestion = suggestion(for: nameWord.text) { message += "; did you mean '\(suggestion)'?" }
            message += " (try 'help')"
            throw UsageError(command: nil, message, column: nameWord.column)
        }
        let typed = nameWord.text
        var flags: Set<OptionName> = []
        var values: [OptionName: (word: Word, value: ArgumentValue)] = [:]
        var every: [OptionName: [Word]] = [:]
        var arguments: [Word] = []
        var optionsEnded = false
        var index = 1
        let words = statement.words

        func fail(_ message: String, _ word: Word?) -> UsageError {
            UsageError(command: typed, message, column: word?.column)
        }
        /// An option's value: the last one given is its value, and each is kept in order (`--backup A --backup B`).
        func take(_ value: Word, for option: OptionSpec, _ valueSpec: ArgumentSpec) throws(UsageError) {
            values[option.name] = (value, try decode(value, as: valueSpec, typed: typed))
            every[option.name, default: []].append(value)
        }

        while index < words.count {
            let word = words[index]
            index += 1
            let text = word.text
            if optionsEnded || spec.passesOptions
                || !(Self.looksLikeOption(text) || Self.isDigitOptionCluster(text, of: spec))
            {
                arguments.append(word)
                continue
            }
            if text == "--" {
                optionsEnded = true
                continue
            }
            if text.hasPrefix("--") {
                var longName = String(text.dropFirst(2))
                var inlineValue: String?
                if let equals = longName.firstIndex(of: "=") {
                    inlineValue = String(longName[longName.index(after: equals)...])
                    longName = String(longName[..<equals])
                }
                guard let option = spec.option(long: longName) else {
                    throw fail("unknown option --\(SafeText.display(longName))", word)
                }
                if let valueSpec = option.value {
                    let value: Word
                    if let inlineValue {
                        value = Word(inlineValue, column: word.column, isQuoted: word.isQuoted)
                    } else if index < words.count {
                        value = words[index]
                        index += 1
                    } else {
                        throw fail("option --\(longName) needs \(valueSpec.placeholder)", word)
                    }
                    try take(value, for: option, valueSpec)
                } else {
                    if inlineValue != nil { throw fail("option --\(longName) takes no value", word) }
                    flags.insert(option.name)
                }
                continue
            }
            // A cluster of short options: -lt, -o DIR, -oDIR.
            var letters = Substring(text.dropFirst())
            while let letter = letters.first {
                letters = letters.dropFirst()
                guard let option = spec.option(short: letter) else {
                    throw fail("unknown option -\(SafeText.display(String(letter)))", word)
                }
                guard let valueSpec = option.value else {
                    flags.insert(option.name)
                    continue
                }
                let value: Word
                if !letters.isEmpty {
                    value = Word(String(letters), column: word.column, isQuoted: word.isQuoted)
                } else if index < words.count {
                    value = words[index]
                    index += 1
                } else {
                    throw fail("option -\(letter) needs \(valueSpec.placeholder)", word)
                }
                try take(value, for: option, valueSpec)
                break
            }
        }

        let count = spec.argumentCount
        if arguments.count < count.min {
            let missing = spec.argument(at: arguments.count)?.placeholder ?? "an argument"
            throw fail("missing \(missing)", nil)
        }
        if let max = count.max, arguments.count > max {
            let extra = arguments[max]
            throw fail("unexpected argument '\(SafeText.display(extra.text))'", extra)
        }
        var decoded: [(word: Word, value: ArgumentValue)] = []
        for (position, argument) in arguments.enumerated() {
            let value = try spec.argument(at: position).map { argumentSpec throws(UsageError) in
                try decode(argument, as: argumentSpec, typed: typed)
            }
            decoded.append((argument, value ?? .word(argument.text)))
        }
        if statement.runsInBackground && !spec.runsInBackground {
            throw UsageError(command: typed, "only \(backgroundCommandNames) run as jobs ('&')", column: statement.column)
        }
        return Invocation(
            command: spec, name: nameWord, ignoresFailure: statement.ignoresFailure, flags: flags,
            values: values, every: every, arguments: decoded, runsInBackground: statement.runsInBackground)
    }

    /// Tokenizes and checks a whole line; the first grammar or usage problem is thrown.
    public func invocations(for line: String) throws -> [Invocation] {
        try Tokenizer.statements(in: line).map { statement throws(UsageError) in try invocation(for: statement) }
    }

    /// `-1` and `-1l` when the command has a `-1` option (`ls -1`): options, though they look like numbers.
    public static func isDigitOptionCluster(_ text: String, of spec: CommandSpec) -> Bool {
        text.count >= 2 && text.hasPrefix("-") && text.dropFirst().allSatisfy { spec.option(short: $0) != nil }
    }

    /// `-x`, `--long`, `--`; but not `-` alone and not a negative number such as `-10` or `-1.5`.
    public static func looksLikeOption(_ text: String) -> Bool {
        let utf8 = Array(text.utf8.prefix(2))
        guard utf8.count == 2, utf8[0] == UInt8(ascii: "-") else { return false }
        return !(utf8[1] >= UInt8(ascii: "0") && utf8[1] <= UInt8(ascii: "9")) && utf8[1] != UInt8(ascii: ".")
    }

    /// The commands that may end with `&`, for the message that says so.
    private var backgroundCommandNames: String {
        let names = commands.filter(\.runsInBackground).map(\.name)
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// Checks `word` against its kind and decodes it: the one place a number, a byte count or a seek position
    /// is read from text, so a bad value is one clear error and a command never parses it again.
    private func decode(_ word: Word, as spec: ArgumentSpec, typed: String) throws(UsageError) -> ArgumentValue {
        let text = word.text
        let value = ArgumentValue(text, as: spec.kind)
        let shown = SafeText.display(text)
        let problem: String?
        switch spec.kind {
        case .seekPosition:
            problem = value.seekPosition == nil
                ? "\(spec.placeholder) must be seconds (12.5), m:ss (1:02.5), +N, -N or N%, not '\(shown)'" : nil
        case .integer:
            problem = value.integer == nil ? "\(spec.placeholder) must be a whole number, not '\(shown)'" : nil
        case .byteCount:
            problem = value.byteCount == nil ? "\(spec.placeholder) must be a number of bytes, not '\(shown)'" : nil
        case .choice(let choices):
            problem = choices.contains(text)
                ? nil : "\(spec.placeholder) must be \(choices.joined(separator: " or ")), not '\(shown)'"
        case .commandName:
            problem = command(named: text) == nil ? "unknown command '\(shown)'" : nil
        case .remoteName, .remoteFolder, .localPath, .localFolder, .cameraURL, .settingName:
            problem = text.isEmpty ? "\(spec.placeholder) must not be empty" : nil
        case .text, .propertyName, .propertyValue, .settingValue:
            problem = nil
        }
        if let problem { throw UsageError(command: typed, problem, column: word.column) }
        return value
    }

    /// The closest command name within two edits, for "did you mean".
    private func suggestion(for typed: String) -> String? {
        guard typed.count <= 20 else { return nil }
        let candidates = allNames.map { ($0, Self.editDistance(typed.lowercased(), $0)) }
        guard let best = candidates.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.1 < typed.count else { return nil }
        return best.0
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }
}
