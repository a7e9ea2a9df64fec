import TerminalKit

/// Turns a line and a cursor into what Tab should do: command names, options, camera names, local paths,
/// settings or URL schemes, depending on where the cursor is; driven by the command table.
public struct CompletionEngine: Sendable {
    public let table: CommandTable
    private let commandNames: NameIndex
    private let commandNameList: [String]

    public init(table: CommandTable) {
        self.table = table
        // Symbol aliases such as `?` would need escaping; they stay out of completion.
        commandNameList = table.allNames.filter { $0.first?.isLetter == true }
        commandNames = NameIndex(names: commandNameList)
    }

    /// The command names, and the context's aliases when it has any.
    private func commandIndex(_ context: some CompletionContext) -> NameIndex {
        let aliases = context.aliasNames()
        return aliases.isEmpty ? commandNames : NameIndex(names: commandNameList + aliases)
    }

    /// The completion for `line` with the cursor at UTF-8 byte offset `cursor` (clamped to the line).
    public func complete(_ line: String, cursor: Int, context: some CompletionContext) -> CompletionResult {
        let bytes = Array(line.utf8)
        var cursor = min(max(cursor, 0), bytes.count)
        while cursor > 0, cursor < bytes.count, bytes[cursor] & 0xC0 == 0x80 { cursor -= 1 }

        let scan = LineScanner.scan(bytes[..<cursor])
        if scan.endsInComment { return .nothing(at: cursor) }
        var words = scan.statements[scan.statements.count - 1].words
        let current = scan.endsInsideWord ? words.removeLast() : nil
        let word = TypedWord(
            text: current.map { String(decoding: $0.text, as: UTF8.self) } ?? "",
            start: current?.start ?? cursor, cursor: cursor, quote: scan.openQuote,
            pendingBackslash: scan.pendingBackslash, exists: current != nil)

        guard let first = words.first else {
            let dashed = current?.startsWithBareDash == true
            let name = dashed ? String(word.text.dropFirst()) : word.text
            return finish(word, matches: nameMatches(commandIndex(context), base: dashed ? "-" : "", typed: name))
        }
        var commandName = String(decoding: first.text, as: UTF8.self)
        if first.startsWithBareDash { commandName.removeFirst() }
        var previous = words.dropFirst().map { String(decoding: $0.text, as: UTF8.self) }
        guard let command = command(named: commandName, previous: &previous, context) else { return .nothing(at: cursor) }
        let numbers = current.map { FileNumbers.isWritten($0.word) } ?? false
        return finish(word, matches: matches(for: command, previous: previous[...], typed: word.text, numbers: numbers, context))
    }

    /// The command `name` runs: a command of the table, or the command an alias's last statement begins with,
    /// the words the alias puts before the typed ones (not its `$@` or `$1`) going before `previous`, so that
    /// an alias for `fetch` completes as `fetch` does. Aliases of aliases are followed a few levels deep.
    private func command(
        named name: String, previous: inout [String], _ context: some CompletionContext
    ) -> CommandSpec? {
        var name = name
        for _ in 0..<8 {
            if let command = table.command(named: name) { return command }
            guard let body = context.aliasBody(name),
                let statement = LineScanner.scan(Array(body.utf8)).statements.last(where: { !$0.words.isEmpty })
            else { return nil }
            var words = statement.words.map { String(decoding: $0.text, as: UTF8.self) }.filter { !$0.contains("$") }
            guard !words.isEmpty else { return nil }
            name = words.removeFirst()
            if name.hasPrefix("-") { name.removeFirst() }
            previous = words + previous
        }
        return nil
    }

    // MARK: - What is being completed

    /// `numbers`: the word is written as file numbers (`#1`), not as a name.
    private func matches(
        for command: CommandSpec, previous: ArraySlice<String>, typed: String, numbers: Bool,
        _ context: some CompletionContext
    ) -> Matches {
        var positional: [String] = []
        var optionsEnded = false
        var pendingValue: ArgumentSpec?
        for text in previous {
            if pendingValue != nil {
                pendingValue = nil
            } else if !optionsEnded && text == "--" {
                optionsEnded = true
            } else if !optionsEnded && CommandTable.looksLikeOption(text) {
                pendingValue = Self.valueAwaited(after: text, in: command)
            } else {
                positional.append(text)
            }
        }
        if let pendingValue { return argumentMatches(pendingValue.kind, base: "", typed: typed, context) }

        if !optionsEnded && typed.hasPrefix("-") && !command.options.isEmpty
            && (typed == "-" || CommandTable.looksLikeOption(typed))
        {
            if typed.hasPrefix("--"), let equals = typed.firstIndex(of: "=") {
                let name = String(typed[typed.index(typed.startIndex, offsetBy: 2)..<equals])
                guard let value = command.option(long: name)?.value else { return Matches() }
                let base = String(typed[...equals])
                return argumentMatches(value.kind, base: base, typed: String(typed[typed.index(after: equals)...]), context)
            }
            var spellings: [CompletionEntry] = []
            for option in command.options {
                for spelling in option.spellings { spellings.append(CompletionEntry(spelling)) }
            }
            return nameMatches(NameIndex(spellings), base: "", typed: typed)
        }
        guard let argument = command.argument(at: positional.count) else { return Matches() }
        if numbers, argument.kind == .remoteName || argument.kind == .remoteFolder { return numberMatches(typed: typed, context) }
        if case .propertyValue = argument.kind {
            // The value's first word only (a date's time is typed), for the name just before it.
            guard let name = positional.last, command.argument(at: positional.count - 1)?.kind == .propertyName else {
                return Matches()
            }
            return nameMatches(NameIndex(names: context.propertyValues(for: name)), base: "", typed: typed)
        }
        if case .settingValue = argument.kind {
            guard let name = positional.last, command.argument(at: positional.count - 1)?.kind == .settingName else {
                return Matches()
            }
            return nameMatches(NameIndex(names: context.settingValues(for: name)), base: "", typed: typed)
        }
        return argumentMatches(argument.kind, base: "", typed: typed, context)
    }

    /// The value spec an option word leaves waiting for the next word (`-o`, `-lo`, `--output`), if any.
    private static func valueAwaited(after text: String, in command: CommandSpec) -> ArgumentSpec? {
        if text.hasPrefix("--") {
            if text.contains("=") { return nil }
            return command.option(long: String(text.dropFirst(2)))?.value
        }
        var letters = text.dropFirst()
        while let letter = letters.first {
            letters = letters.dropFirst()
            if let value = command.option(short: letter)?.value { return letters.isEmpty ? value : nil }
        }
        return nil
    }

    private func argumentMatches(
        _ kind: ArgumentKind, base: String, typed: String, _ context: some CompletionContext
    ) -> Matches {
        switch kind {
        case .remoteName:
            return pathMatches(base: base, typed: typed, foldersOnly: false, list: context.remoteEntries)
        case .remoteFolder:
            return pathMatches(base: base, typed: typed, foldersOnly: true, list: context.remoteEntries)
        case .localPath:
            return pathMatches(base: base, typed: typed, foldersOnly: false, list: context.localEntries)
        case .localFolder:
            return pathMatches(base: base, typed: typed, foldersOnly: true, list: context.localEntries)
        case .settingName:
            return nameMatches(NameIndex(names: context.settingNames()), base: base, typed: typed)
        case .commandName:
            return nameMatches(commandNames, base: base, typed: typed)
        case .choice(let choices):
            return nameMatches(NameIndex(names: choices), base: base, typed: typed)
        case .propertyName:
            return nameMatches(NameIndex(names: context.propertyNames()), base: base, typed: typed)
        case .cameraURL:
            // dir:PATH and sim:PATH take a local folder after the scheme.
            for scheme in ["dir:", "sim:"] where typed.hasPrefix(scheme) {
                return pathMatches(
                    base: base + scheme, typed: String(typed.dropFirst(scheme.count)), foldersOnly: true,
                    list: context.localEntries)
            }
            var matches = nameMatches(NameIndex(names: context.cameraURLSchemes()), base: base, typed: typed)
            matches.uniqueIsFinal = false
            return matches
        case .text, .seekPosition, .integer, .byteCount, .propertyValue, .settingValue:
            return Matches()
        }
    }

    /// A file number being typed (`#1`): the rows whose numbers start with its digits, listed with their
    /// names; one alone is replaced by the name it stands for. Ranges and lists are not completed.
    private func numberMatches(typed: String, _ context: some CompletionContext) -> Matches {
        let digits = typed.dropFirst()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return Matches() }
        let names = context.numberedNames()
        let rows = names.indices.filter { String($0 + 1).hasPrefix(digits) }
        if rows.count == 1, let only = rows.first {
            let name = names[only]
            return Matches(items: [NameIndex.Item(entry: CompletionEntry(name, isFolder: name.hasSuffix("/")), display: name)])
        }
        // Several: the typed word stays (its numbers share no more digits), the rows are listed.
        return Matches(
            base: typed,
            items: rows.map { NameIndex.Item(entry: CompletionEntry(""), display: "#\($0 + 1) \(SafeText.display(names[$0]))") })
    }

    /// Names in the folder part of `typed` (up to its last `/`) that start with the rest of it.
    private func pathMatches(
        base: String, typed: String, foldersOnly: Bool, list: (String) -> NameIndex
    ) -> Matches {
        let folder: String
        let leaf: String
        if let slash = typed.lastIndex(of: "/") {
            folder = String(typed[...slash])
            leaf = String(typed[typed.index(after: slash)...])
        } else {
            folder = ""
            leaf = typed
        }
        return nameMatches(list(folder), base: base + folder, typed: leaf, foldersOnly: foldersOnly)
    }

    private func nameMatches(_ index: NameIndex, base: String, typed: String, foldersOnly: Bool = false) -> Matches {
        let (items, ignoredCase) = index.matches(prefix: typed, foldersOnly: foldersOnly)
        return Matches(base: base, items: items, ignoredCase: ignoredCase)
    }

    // MARK: - Turning matches into an edit

    /// The word under the cursor as typed so far.
    private struct TypedWord {
        var text: String
        var start: Int
        var cursor: Int
        var quote: LineScanner.Quote
        var pendingBackslash: Bool
        var exists: Bool
    }

    /// Sorted entries matching a leaf, and the unescaped text that comes before the leaf in the word.
    private struct Matches {
        var base = ""
        var items: [NameIndex.Item] = []
        var ignoredCase = false
        /// False for URL schemes: a unique one is followed by more typing, not by a space.
        var uniqueIsFinal = true

        /// The longest prefix all entries share (entries are sorted, so the first and last suffice);
        /// a unique folder ends in `/`.
        var commonPrefix: String {
            guard let first = items.first?.entry, let last = items.last?.entry else { return "" }
            if items.count == 1 { return first.isFolder ? first.name + "/" : first.name }
            if ignoredCase {
                return items.dropFirst().reduce(first.name) { sharedPrefix($0, $1.entry.name) }
            }
            return sharedPrefix(first.name, last.name)
        }
    }

    private func finish(_ word: TypedWord, matches: Matches) -> CompletionResult {
        guard let only = matches.items.first?.entry else { return .nothing(at: word.cursor) }
        let unique = matches.items.count == 1
        let isFinal = unique && !only.isFolder && matches.uniqueIsFinal
        let newText = matches.base + matches.commonPrefix
        let candidates = unique ? [] : matches.items.map(\.display)
        let closing: String
        switch (isFinal, word.quote) {
        case (false, _): closing = ""
        case (true, .none): closing = " "
        case (true, .single): closing = "' "
        case (true, .double): closing = "\" "
        }

        let typedBytes = word.text.utf8
        if !word.pendingBackslash, newText.utf8.starts(with: typedBytes) {
            let suffix = String(decoding: newText.utf8.dropFirst(typedBytes.count), as: UTF8.self)
            let escaped: String
            switch word.quote {
            case .none: escaped = ShellQuoting.escape(suffix, atWordStart: !word.exists)
            case .single: escaped = ShellQuoting.escapeInSingleQuotes(suffix)
            case .double: escaped = ShellQuoting.escapeInDoubleQuotes(suffix)
            }
            return CompletionResult(
                range: word.cursor..<word.cursor, replacement: escaped + closing, candidates: candidates)
        }
        // The case differs, or a backslash waits for its character: write the whole word again.
        guard newText.utf8.count >= typedBytes.count || unique else {
            return CompletionResult(range: word.cursor..<word.cursor, replacement: "", candidates: candidates)
        }
        let rewritten: String
        switch word.quote {
        case .none: rewritten = ShellQuoting.escape(newText)
        case .single: rewritten = "'" + ShellQuoting.escapeInSingleQuotes(newText)
        case .double: rewritten = "\"" + ShellQuoting.escapeInDoubleQuotes(newText)
        }
        return CompletionResult(range: word.start..<word.cursor, replacement: rewritten + closing, candidates: candidates)
    }
}

/// The longest run of characters both strings start with.
private func sharedPrefix(_ a: String, _ b: String) -> String {
    var end = a.startIndex
    for (x, y) in zip(a.indices, b) {
        guard a[x] == y else { break }
        end = a.index(after: x)
    }
    return String(a[..<end])
}
