import TerminalKit

extension CommandTable {
    /// The text of `help`: the commands grouped by area, synopsis and summary in aligned columns, every line
    /// at most `width` cells (summaries wrap at spaces; a synopsis too wide for the column gets its own line).
    public func helpOverview(width: Int = 80) -> String {
        let width = max(width, HelpLayout.narrowest)
        var lines: [String] = []
        for area in CommandArea.allCases {
            let members = commands.filter { $0.area == area }
            guard !members.isEmpty else { continue }
            if !lines.isEmpty { lines.append("") }
            lines.append("\(area.rawValue):")
            let rows = members.map { command -> HelpEntry in
                // A command with many options shows them as one placeholder here; `help CMD` lists them.
                let aliases = command.aliases.isEmpty ? "" : " (" + command.aliases.joined(separator: ", ") + ")"
                let fits = TerminalWidth.of(command.synopsis + aliases) <= HelpLayout.termColumnCap(width: width)
                return HelpEntry((fits ? command.synopsis : command.shortSynopsis) + aliases, command.summary)
            }
            lines += HelpLayout.definitions(rows, width: width)
        }
        lines.append("")
        lines += HelpLayout.wrap(
            "Type 'help CMD' for one command. Separate commands with ';'; '#' starts a comment, but '#' and a "
                + "digit after a command name are file numbers: '#3', '#1-5', '#1,3' name rows of the last "
                + "'ls -n'; a leading '-' (as in '-rm x') keeps a script going when that command fails.", width: width)
        return lines.joined(separator: "\n")
    }

    /// The text of `help CMD`: usage, aliases, what it does, its options, lists and examples, every line at
    /// most `width` cells. `invokedAs` names the command in the usage line when it is typed otherwise
    /// (`mediashell serve` for the program `serve`).
    public func help(for command: CommandSpec, width: Int = 80, invokedAs: String? = nil) -> String {
        let width = max(width, HelpLayout.narrowest)
        var lines = HelpLayout.wrapUsage("usage: \(command.synopsis(invokedAs: invokedAs))", width: width)
        if !command.aliases.isEmpty {
            lines += HelpLayout.wrap("aliases: " + command.aliases.joined(separator: ", "), width: width)
        }
        lines.append("")
        lines += HelpLayout.wrap(command.details.isEmpty ? command.summary : command.details, width: width)
        if !command.options.isEmpty {
            lines.append("")
            lines.append("options:")
            lines += HelpLayout.definitions(command.options.map { HelpEntry($0.helpTerm, $0.summary) }, width: width)
        }
        for section in command.sections {
            lines.append("")
            lines.append("\(section.title):")
            lines += HelpLayout.definitions(section.entries, width: width)
        }
        if !command.examples.isEmpty {
            lines.append("")
            lines.append("examples:")
            for example in command.examples {
                lines += HelpLayout.fill(example.split(separator: " ").map(String.init), width: width, first: 2, rest: 6)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `help NAME`: the help of that command, or a usage error naming the unknown command.
    public func help(forName name: String, width: Int = 80) throws(UsageError) -> String {
        guard let command = command(named: name) else {
            throw UsageError(command: "help", "unknown command '\(SafeText.display(name))'")
        }
        return help(for: command, width: width)
    }
}

extension OptionSpec {
    /// The option as `help CMD` lists it: `-o, --output DIR`.
    public var helpTerm: String {
        var spelling = spellings.joined(separator: ", ")
        if let value { spelling += " \(value.placeholder)" }
        return spelling
    }
}

/// How help text is laid out in a given width: paragraphs wrapped at spaces, two-column lists whose second
/// column wraps under itself, usage lines cut between options. No line is wider than the width asked for
/// (a single word wider than it is cut), and none ends in a space.
enum HelpLayout {
    /// The narrowest width laid out; a narrower terminal gets this (and wraps the lines itself).
    static let narrowest = 20

    /// Splits text into lines of at most `width` cells at spaces; `\n` starts a new paragraph; every line
    /// starts with `indent` spaces.
    static func wrap(_ text: String, width: Int, indent: Int = 0) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines += fill(paragraph.split(separator: " ").map(String.init), width: width, first: indent, rest: indent)
        }
        return lines
    }

    /// Words filled into lines of at most `width` cells (`WordWrap.fill`).
    static func fill(_ words: [String], width: Int, first: Int, rest: Int) -> [String] {
        WordWrap.fill(words, width: width, first: first, rest: rest)
    }

    /// Terms and their texts in two columns, indented by two: the texts start in one column, wrap under
    /// themselves, and a term too wide for its column (more than about half the width) stands on its own
    /// line with its text on the next. At narrow widths every text goes under its term.
    static func definitions(_ entries: [HelpEntry], width: Int, indent: Int = 2) -> [String] {
        let cap = termColumnCap(width: width, indent: indent)
        let termWidths = entries.map { TerminalWidth.of($0.term) }
        let column = termWidths.filter { $0 <= cap }.max() ?? 0
        let textStart = indent + column + 2
        let stacked = width - textStart < 16
        var lines: [String] = []
        for (entry, termWidth) in zip(entries, termWidths) {
            let words = entry.text.split(separator: " ").map(String.init)
            let termLines = fill(entry.term.split(separator: " ").map(String.init), width: width, first: indent, rest: indent + 4)
            if stacked || termWidth > column {
                lines += termLines
                if !words.isEmpty {
                    let start = stacked ? indent + 4 : textStart
                    lines += fill(words, width: width, first: start, rest: start)
                }
                continue
            }
            let padded = TerminalWidth.pad(termLines[0], to: textStart)
            var filled = fill(words, width: width, first: textStart, rest: textStart)
            filled[0] = padded + filled[0].dropFirst(textStart)
            while filled[0].last == " " { filled[0].removeLast() }
            lines += filled
        }
        return lines
    }

    /// The widest term that gets a column of its own beside its text.
    static func termColumnCap(width: Int, indent: Int = 2) -> Int { max(8, width / 2 - indent) }

    /// A usage line cut before an option that would pass `width`, the rest indented under the first option
    /// (or by four when that leaves too little room). A bracketed group stays together when it fits.
    static func wrapUsage(_ usage: String, width: Int) -> [String] {
        guard TerminalWidth.of(usage) > width else { return [usage] }
        let words = usage.split(separator: " ").map(String.init)
        guard words.count > 2 else { return fill(words, width: width, first: 0, rest: 4) }
        var indent = TerminalWidth.of(words[0]) + TerminalWidth.of(words[1]) + 2
        if width - indent < 20 { indent = 4 }
        // Group the words into bracketed atoms: `[-o DIR]`, `[NAME|GLOB...]`.
        var atoms: [String] = []
        var pending = ""
        for word in words.dropFirst(2) {
            pending += (pending.isEmpty ? "" : " ") + word
            let depth = pending.filter { $0 == "[" }.count - pending.filter { $0 == "]" }.count
            guard depth <= 0 else { continue }
            atoms.append(pending)
            pending = ""
        }
        if !pending.isEmpty { atoms.append(pending) }
        var lines: [String] = []
        var line = words[0] + " " + words[1]
        for atom in atoms {
            if TerminalWidth.of(line) + 1 + TerminalWidth.of(atom) <= width {
                line += " " + atom
                continue
            }
            lines.append(line)
            if indent + TerminalWidth.of(atom) <= width {
                line = String(repeating: " ", count: indent) + atom
            } else {
                // A group wider than the room left: its words filled on lines of their own.
                var filled = fill(atom.split(separator: " ").map(String.init), width: width, first: indent, rest: indent + 2)
                line = filled.removeLast()
                lines += filled
            }
        }
        lines.append(line)
        return lines
    }
}
