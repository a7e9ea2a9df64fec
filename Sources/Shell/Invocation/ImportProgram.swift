import CommandKit
import Foundation
import POSIX
import TerminalKit

extension OptionName {
    static let camera: OptionName = "camera"
    static let whenPlugged: OptionName = "when-plugged"
    static let stopWhenPlugged: OptionName = "stop-when-plugged"
    static let plugged: OptionName = "plugged"
    static let serial: OptionName = "serial"
    static let eject: OptionName = "eject"
    static let help: OptionName = "help"
}

/// `mediashell import [OPTIONS]`: the shell's `import` from the command line, for the camera attached or
/// named, and for a camera or card as it is plugged in (`--when-plugged` installs the systemd user service
/// that udev starts; the service runs `--plugged NAME`).
public struct ImportProgram {
    /// The program's own options, then every option of the shell's `import`, which it hands on.
    public static let spec = CommandSpec(
        "import", area: .program,
        options: [
            OptionSpec(.help, short: "h", long: "help", "print this help and exit"),
            OptionSpec(.camera, long: "camera", value: ArgumentSpec("URL", .cameraURL),
                "import from the camera at URL (default: as the shell opens one: 'set camera', else the USB camera attached)"),
            OptionSpec(.whenPlugged, long: "when-plugged",
                "install a systemd user service that runs this import whenever a camera, or a card with a DCIM folder, is plugged in (with --dry-run: show it), and exit"),
            OptionSpec(.stopWhenPlugged, long: "stop-when-plugged", "remove that service, and exit"),
            OptionSpec(.serial, long: "serial", value: ArgumentSpec("SERIAL", .text),
                "with --when-plugged: only the camera with this USB serial number ('mediashell devices' shows it), or the card whose filesystem has this UUID or label"),
            OptionSpec(.eject, long: "eject",
                "with --when-plugged: once the import is done, unmount the card and power its reader off (udisksctl), or release the camera"),
            OptionSpec(.plugged, long: "plugged", value: ArgumentSpec("DEVICE", .text),
                "what the service runs: import from the device udev names DEVICE (1-2 for a USB camera, sdb1 for a card, mounted by the desktop or udisksctl)"),
        ] + ImportCommand().spec.options,
        arguments: ImportCommand().spec.arguments,
        summary: "import the camera's new files and exit; or, with --when-plugged, whenever a camera or card is plugged in",
        details: """
            Runs the shell's 'import' (see 'help import' in the shell: its options are the same) on the camera \
            --camera names or the one attached, and exits with its status. With --when-plugged it installs \
            the systemd user service mediashell-plugged@.service in ~/.config/systemd/user with the options \
            given; the package's udev rule (60-mediashell.rules) starts it for every camera, and every \
            removable disk's filesystem, as it appears; it imports what has a DCIM folder, logs to the \
            journal (journalctl --user -u 'mediashell-plugged@*'), and says the counts on the desktop \
            (notify-send). --dry-run with --when-plugged shows the service without installing it.
            """,
        examples: ["mediashell import --to '~/Pictures/%Y/%m/%f'", "mediashell import --when-plugged --mhl --eject",
            "mediashell import --when-plugged --serial 3SF1234 --to /srv/photos/%c/%Y/%f", "mediashell import --stop-when-plugged"])

    let invocation: Invocation
    /// `-n` came before the program's name: the config file is not run.
    let skipsConfig: Bool

    public var wantsHelp: Bool { invocation.has(.help) }

    public init(arguments: [String], skipsConfig: Bool = false) throws(ArgumentError) {
        let invocation = try ShellArguments.parse(arguments, as: Self.spec)
        self.invocation = invocation
        self.skipsConfig = skipsConfig
        let modes = [OptionName.whenPlugged, .stopWhenPlugged, .plugged, .camera].filter {
            invocation.has($0) || invocation.value(of: $0) != nil
        }
        if modes.count > 1 {
            throw ArgumentError(
                "mediashell import: \(modes.map { "--\($0)" }.joined(separator: " and ")) cannot go together (try 'mediashell import --help')")
        }
        for option in [OptionName.serial, .eject] where invocation.has(option) || invocation.value(of: option) != nil {
            guard modes.first != .whenPlugged && modes.first != .plugged else { continue }
            throw ArgumentError("mediashell import: --\(option) goes with --when-plugged (try 'mediashell import --help')")
        }
    }

    public func run(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        if invocation.has(.whenPlugged) { return install(environment: environment) }
        if invocation.has(.stopWhenPlugged) { return remove(environment: environment) }
        if let name = invocation.value(of: .plugged)?.text { return PluggedImport(program: self, environment: environment).run(name) }
        return Shell.runImport(camera: invocation.value(of: .camera)?.text, line: importLine, skipsConfig: skipsConfig).status
    }

    /// The shell's `import` line these options make: its own options as given, paths made absolute (a
    /// service runs in another folder), the folders and globs quoted as the shell reads them.
    var importLine: String { (["import"] + importWords.map(Self.quoted)).joined(separator: " ") }

    /// The words of the `import` options, each value absolute where it names a path.
    var importWords: [String] {
        var words: [String] = []
        for option in ImportCommand().spec.options {
            let spelling = option.long.map { "--\($0)" } ?? "-\(option.short!)"
            guard option.value != nil else {
                if invocation.has(option.name) { words.append(spelling) }
                continue
            }
            for value in invocation.values(of: option.name) {
                let isPath = option.value?.kind == .localPath
                words += [spelling, isPath ? Self.absolute(value.text) : value.text]
            }
        }
        if !invocation.arguments.isEmpty { words.append("--") }
        return words + invocation.arguments.map(\.text)
    }

    /// A path from the current folder, `~` expanded; a pattern's `%` tokens are left as they are.
    static func absolute(_ path: String) -> String {
        let expanded = LocalDisk.expandingTilde(path)
        return expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded
    }

    /// A word as the shell's own parser reads it back as the same word: bare when it is plain letters,
    /// digits and `-_./%:,+=@` or a glob of those (so `*.JPG` still matches), single-quoted otherwise.
    static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            (scalar.value < 0x80 && (CharacterSet.alphanumerics.contains(scalar) || "-_./%:,+=@*?".unicodeScalars.contains(scalar)))
        }
        return plain && !word.hasPrefix("#") ? word : LocalShell.quoted(word)
    }

    // MARK: --when-plugged

    /// What the service runs: this program with `--plugged` and the device's name, the same options.
    func serviceArguments() -> [String] {
        var arguments = ["import", "--plugged", PluggedService.instance]
        if let serial = invocation.value(of: .serial)?.text { arguments += ["--serial", serial] }
        if invocation.has(.eject) { arguments.append("--eject") }
        if skipsConfig { arguments.insert("-n", at: 0) }
        // --dry-run belongs to the installing, not to every import.
        return arguments + importWords.filter { $0 != "--dry-run" }
    }

    func install(environment: [String: String]) -> Int32 {
        guard let folder = PluggedService.folder(environment: environment) else {
            Console.error("mediashell import: no home folder (HOME) to install the service in")
            return 1
        }
        // Checked now, not when a camera is plugged in: the import line must parse.
        if let problem = Shell.checkImportLine(importLine) {
            Console.error("mediashell import: \(problem)")
            return 2
        }
        let executable = Self.runningExecutable()
        let path = folder + "/" + PluggedService.unitName
        let text = PluggedService.unitText(executable: executable, arguments: serviceArguments())
        let rule = PluggedService.installedRule()
        if invocation.has(.dryRun) {
            print("would write \(path):")
            print(text, terminator: "")
            print(ruleSentence(rule))
            return 0
        }
        do {
            try PrivateFile.replace(path, with: text)
        } catch {
            Console.error("mediashell import: cannot write \(path): \(error.reason)")
            return 1
        }
        print("installed \(path)")
        print("it runs: \(ImportProgram.commandText(executable, serviceArguments()))")
        print(reload(environment: environment))
        print(ruleSentence(rule))
        print("its log: journalctl --user -u 'mediashell-plugged@*'; 'mediashell import --stop-when-plugged' removes it")
        return rule?.startsService == true ? 0 : 1
    }

    func remove(environment: [String: String]) -> Int32 {
        guard let folder = PluggedService.folder(environment: environment) else {
            Console.error("mediashell import: no home folder (HOME)")
            return 1
        }
        let path = folder + "/" + PluggedService.unitName
        guard LocalDisk.exists(path) else {
            print("no service to remove: \(path) does not exist")
            return 0
        }
        if unlink(path) != 0 {
            Console.error("mediashell import: cannot remove \(path): \(String(cString: strerror(errno)))")
            return 1
        }
        print("removed \(path)")
        print(reload(environment: environment))
        return 0
    }

    /// Asks the user's systemd to read its units again; what happened, as a sentence.
    private func reload(environment: [String: String]) -> String {
        guard let systemctl = findExecutable("systemctl", path: environment["PATH"]) else {
            return "no systemctl here: systemd reads the unit when it next starts"
        }
        let finished = try? ChildProcess.run(
            executable: systemctl, arguments: ["--user", "daemon-reload"], input: [], outputLimit: 1 << 16, timeout: 30)
        guard let finished, finished.exitCode == 0 else {
            return "systemd's user manager did not reload (none running for this user?): it reads the unit when it starts"
        }
        return "systemd's user manager has read it"
    }

    private func ruleSentence(_ rule: (path: String, startsService: Bool)?) -> String {
        guard let rule else {
            return "the udev rule that starts the service is not installed: install the mediashell package, or "
                + "'sudo install -m 644 scripts/packaging/60-mediashell.rules /etc/udev/rules.d/' from the source tree"
        }
        if rule.startsService { return "udev starts it as cameras and cards appear (\(rule.path))" }
        return "\(rule.path) is from an older mediashell and starts no service: install this version's rule "
            + "(scripts/packaging/60-mediashell.rules)"
    }

    /// This program's file, as the service must start it again (not a relative path or a name in PATH).
    static func runningExecutable() -> String {
        guard let resolved = realpath("/proc/self/exe", nil) else { return absolute(CommandLine.arguments[0]) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A command as a shell would take it, for showing.
    static func commandText(_ executable: String, _ arguments: [String]) -> String {
        ([executable] + arguments.map { $0 == PluggedService.instance ? "DEVICE" : quoted($0) }).joined(separator: " ")
    }
}
