/// set [NAME [VALUE]]: lists the settings, shows one, or changes one (see `Settings`).
struct SetCommand: ShellCommand {
    let spec = CommandSpec(
        "set", area: .session,
        arguments: [ArgumentSpec("NAME", .settingName, .optional), ArgumentSpec("VALUE", .text, .optional)],
        summary: "show or change a setting",
        details: """
            With no argument, lists the settings; with NAME, shows one; with NAME VALUE, changes it.
            errexit on|off: stop a script at the first failure (on). progress on|off: progress lines on a \
            terminal. timeout SECONDS: how long to wait for the camera (used by open and capture). \
            images auto|kitty|iterm|blocks|off: how thumbnails are drawn (auto: the terminal's image protocol \
            when it has one, else colour half blocks; off: text only). download-dir DIR: where fetch writes. \
            limit-rate BYTES|off: the most bytes per second a download takes (500k, 20M). \
            player auto|mpv|none: where play shows the video (auto: mpv at a prompt with a display, \
            none in scripts; mpv: whenever installed; none: never).
            """)

    func run(_ invocation: Invocation, in shell: Interpreter) throws -> CommandOutcome {
        let arguments = invocation.arguments
        guard let name = arguments.first?.text else {
            let rows = Settings.names.map { [$0, (try? shell.state.settings.value(of: $0)) ?? ""] }
            for line in ColumnTable(rows: rows.map { $0.map(SafeText.display) }).lines() { shell.output.line(line) }
            return .success
        }
        guard arguments.count > 1 else {
            shell.output.line("\(name) \(SafeText.display(try shell.state.settings.value(of: name)))")
            return .success
        }
        var settings = shell.state.settings
        try settings.set(name, to: arguments[1].text)
        if name == "download-dir" {
            let folder = LocalDisk.expandingTilde(settings.downloadFolder)
            if LocalDisk.exists(folder) && !LocalDisk.isFolder(folder) {
                throw CommandError("\(SafeText.display(folder)) is not a folder")
            }
        }
        shell.state.settings = settings
        return .success
    }
}
