import CommandKit
import Import
import MediaManager
import POSIX
import TerminalKit
import Words

/// set [NAME [VALUE]]: lists the settings, shows one, or changes one (see `Settings`).
struct SetCommand: ShellCommand {
    let spec = CommandSpec(
        "set", area: .session,
        options: [OptionSpec(.save, long: "save", "also write the setting to the config file")],
        arguments: [ArgumentSpec("NAME", .settingName, .optional), ArgumentSpec("VALUE", .settingValue, .optional)],
        summary: "show or change a setting",
        details: "With no argument, lists the settings; with NAME, shows one; with NAME VALUE, changes it. "
            + "--save also writes it to the config file, so that every later session starts with it.",
        examples: ["set", "set limit-rate 20M", "set prompt '%n %c%W%s> '", "set --save download-dir ~/Pictures/drone", "set errexit off", "set creator 'Ann Lee'"],
        sections: [
            HelpSection("settings", Settings.help.map { HelpEntry($0.name + " " + $0.values, $0.meaning) } + [
                HelpEntry(
                    "time-shift DURATION|0",
                    "the open camera's own clock correction, kept in its import ledger: import adds it to every capture time (0)")
            ]),
            HelpSection("prompt tokens", PromptFormat.tokens),
        ])

    func run(_ invocation: Invocation, in shell: any ConfigContext) throws -> CommandOutcome {
        let arguments = invocation.arguments
        guard let name = arguments.first?.text else {
            let rows = Settings.names.map { [$0, (try? shell.state.settings.value(of: $0)) ?? ""] }
            for line in ColumnTable(rows: rows.map { $0.map(SafeText.display) }).lines() { shell.output.line(line) }
            return .success
        }
        if name == "time-shift" { return try Self.timeShift(arguments.dropFirst().first?.text, shell) }
        guard arguments.count > 1 else {
            if invocation.has(.save) { throw CommandError("--save needs NAME VALUE") }
            shell.output.line("\(name) \(SafeText.display(try shell.state.settings.value(of: name)))")
            return .success
        }
        var settings = shell.state.settings
        try settings.set(name, to: arguments[1].text)
        if name == "download-dir" {
            let folder = LocalDisk.expandingTilde(settings.downloadFolder)
            if LocalDisk.exists(folder) && !LocalDisk.isDirectory(folder) {
                throw CommandError("\(SafeText.display(folder)) is not a folder")
            }
        }
        shell.state.settings = settings
        // The folder's rule is the one it was opened with.
        if name == "writable", let url = shell.media?.url, case .simulator(_?) = url {
            shell.output.note("writable \(try settings.value(of: name)): \(FolderAccessWords.appliesAtOpen(url))")
        }
        if invocation.has(.save) {
            guard let path = shell.configPath else {
                throw CommandError("no config file: neither $XDG_CONFIG_HOME nor $HOME is an absolute folder")
            }
            try ConfigFile.save(setting: name, value: arguments[1].text, at: path)
        }
        return .success
    }

    /// `set time-shift [DURATION]`: the open camera's own setting, kept in its import ledger, that
    /// `import` adds to every capture time when no `--shift` is given (0 clears it).
    static func timeShift(_ value: String?, _ shell: any ConfigContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        let ledgers = try Importer.ledgers(for: session, folder: LedgerLocation.folder(environment: shell.environment))
        guard let value else {
            let shift = ledgers.shift.map { ShiftText.format($0) } ?? "0 (none)"
            shell.output.note("time-shift \(shift) (this camera's, kept in its import ledger)")
            return .success
        }
        guard let seconds = ShiftText.parse(value) ?? (value == "0" ? 0 : nil) else {
            throw CommandError("time-shift takes a duration such as +3h02m, -1h or 0, not '\(SafeText.display(value))'")
        }
        try ledgers.saveShift(seconds)
        return .success
    }
}
