import CommandKit
import Foundation

/// The options of `mediashell` itself and of `mediashell serve`, for the man page and the bash completion
/// (`ShellArguments` and `ServeCommand` parse them).
enum CommandLineOptions {
    static let shell: [HelpEntry] = [
        HelpEntry("--camera URL", "open the camera at URL (see CAMERA URLS); else 'set camera' of the config file, else the USB camera attached"),
        HelpEntry("-f, --file SCRIPT", "run the commands of SCRIPT and exit"),
        HelpEntry("-c, --command CMDS", "run CMDS (';' or newlines between them) and exit"),
        HelpEntry("--download-dir DIR", "where fetch writes (the download-dir setting)"),
        HelpEntry("-n, --no-config", "do not run the config file"),
        HelpEntry("--debug-ptp FILE", "write every PTP container exchanged with the camera to FILE"),
        HelpEntry("--debug-ptp-redact", "replace file names, serial numbers and labels in that trace"),
        HelpEntry("-h, --help", "print the usage and exit"),
        HelpEntry("-V, --version", "print the version and exit"),
    ]

    static let serve: [HelpEntry] = [
        HelpEntry("--listen HOST:PORT", "where to listen (127.0.0.1:15740)"),
        HelpEntry("--read-only", "refuse deletes"),
        HelpEntry("--writable", "accept uploads (put, mkdir), contained in DIR"),
        HelpEntry("--max-upload SIZE", "the largest upload accepted"),
        HelpEntry("--link LINK", "make each connection cost what a Wi-Fi or USB link would"),
        HelpEntry("--quirks LIST", "imitate real cameras' departures from the spec ('--quirks help' lists them)"),
    ]

    /// Every spelling in `entries`: `-f`, `--file`, ...
    static func spellings(_ entries: [HelpEntry]) -> [String] {
        entries.flatMap { entry in
            entry.term.split(separator: " ").map { String($0).trimmingCharacters(in: [","]) }.filter { $0.hasPrefix("-") }
        }
    }

    /// The options that take a value (`--camera`, `-f`, ...).
    static func takingValues(_ entries: [HelpEntry]) -> [String] {
        entries.filter { $0.term.contains { $0.isUppercase } }.flatMap { spellings([$0]) }
    }
}
