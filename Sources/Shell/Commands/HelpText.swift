extension CommandTable {
    /// The text of `help`: the commands grouped by area, synopsis and summary in aligned columns.
    public func helpOverview() -> String {
        var lines: [String] = []
        for area in CommandArea.allCases {
            let members = commands.filter { $0.area == area }
            guard !members.isEmpty else { continue }
            if !lines.isEmpty { lines.append("") }
            lines.append("\(area.rawValue):")
            let rows = members.map { command -> [String] in
                // A command with many options shows them as one placeholder here; `help CMD` lists them.
                var synopsis = command.synopsis.count > 72 ? command.shortSynopsis : command.synopsis
                if !command.aliases.isEmpty { synopsis += " (" + command.aliases.joined(separator: ", ") + ")" }
                return [synopsis, command.summary]
            }
            lines += ColumnTable(rows: rows, indent: 2).lines()
        }
        lines.append("")
        lines.append("Type 'help CMD' for one command. Separate commands with ';'; '#' starts a comment;")
        lines.append("a leading '-' (as in '-rm x') keeps a script going when that command fails.")
        return lines.joined(separator: "\n")
    }

    /// The text of `help CMD`: usage, aliases, what it does, its options and arguments.
    public func help(for command: CommandSpec) -> String {
        var lines = Self.wrapUsage("usage: \(command.synopsis)", width: 80)
        if !command.aliases.isEmpty { lines.append("aliases: " + command.aliases.joined(separator: ", ")) }
        lines.append("")
        lines += Self.wrap(command.details.isEmpty ? command.summary : command.details, width: 78)
        if !command.options.isEmpty {
            lines.append("")
            lines.append("options:")
            let rows = command.options.map { option -> [String] in
                var spelling = option.spellings.joined(separator: ", ")
                if let value = option.value { spelling += " \(value.placeholder)" }
                return [spelling, option.summary]
            }
            lines += ColumnTable(rows: rows, indent: 2).lines()
        }
        return lines.joined(separator: "\n")
    }

    /// `help NAME`: the help of that command, or a usage error naming the unknown command.
    public func help(forName name: String) throws(UsageError) -> String {
        guard let command = command(named: name) else {
            throw UsageError(command: "help", "unknown command '\(SafeText.display(name))'")
        }
        return help(for: command)
    }

    /// A usage line cut before an option that would pass `width`, the rest indented under the first option.
    static func wrapUsage(_ usage: String, width: Int) -> [String] {
        guard usage.count > width else { return [usage] }
        let words = usage.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard words.count > 2 else { return [usage] }
        let indent = String(repeating: " ", count: words[0].count + words[1].count + 2)
        var lines: [String] = []
        var line = words[0] + " " + words[1]
        var pending = ""  // a bracketed group spans several words: keep it together
        for word in words.dropFirst(2) {
            pending += (pending.isEmpty ? "" : " ") + word
            let depth = pending.filter { $0 == "[" }.count - pending.filter { $0 == "]" }.count
            guard depth <= 0 else { continue }
            if line.count + 1 + pending.count > width && line != indent {
                lines.append(line)
                line = indent + pending
            } else {
                line += (line == indent ? "" : " ") + pending
            }
            pending = ""
        }
        if !pending.isEmpty { line += " " + pending }
        lines.append(line)
        return lines
    }

    /// Splits text into lines of at most `width` characters at spaces (a longer word gets its own line).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            lines.append(line)
        }
        return lines
    }
}
