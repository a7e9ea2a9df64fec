import TerminalKit

/// The command line of the shell itself:
/// `mediashell [--camera URL] [-f SCRIPT | -c 'CMD; CMD'] [--download-dir DIR] [--debug-ptp FILE [--debug-ptp-redact]]`.
public struct ShellArguments: Equatable {
    public var camera: String?
    public var scriptFile: String?
    public var commands: String?
    public var downloadFolder: String?
    /// Where to write a trace of every PTP container (`--debug-ptp FILE`), for reporting a camera.
    public var ptpTraceFile: String?
    /// Replace object names, serial numbers and labels in that trace (`--debug-ptp-redact`).
    public var ptpTraceRedacted = false
    /// Skip the config file (`-n`, `--no-config`).
    public var skipsConfig = false

    public static let usage = """
        usage: mediashell [--camera URL] [-f SCRIPT | -c 'CMD; CMD'] [--download-dir DIR] [-n]
                          [--debug-ptp FILE [--debug-ptp-redact]]
               mediashell serve [--listen HOST:PORT] [--read-only] [--link LINK] [--quirks a,b,...|help] [DIR]
               mediashell devices
               mediashell --help | --version
        Camera URLs: usb:, usb:BUS,ADDR, usb:VVVV:PPPP, usb:serial=SERIAL, usb:model=NAME,
        ptpip:HOST[:PORT[:EVENTPORT]], fuji:HOST[:PORT[:EVENTPORT]], dir:PATH, sim:, sim:PATH.
        With no --camera, the USB camera attached is opened; with none, a prompt opens the demo card (sim:)
        and a script exits 1; with several, a prompt opens the first and names the others, and a script
        exits 1 with the list ('mediashell devices' shows it too).
        The config file ($XDG_CONFIG_HOME/mediashell/config, else ~/.config/mediashell/config) runs first,
        in the shell's own syntax (set, alias); -n (--no-config) skips it. 'set camera URL' there names the
        camera to open when --camera is not given.
        --debug-ptp FILE writes every PTP container exchanged with the camera to FILE (attach it when reporting
        a camera); --debug-ptp-redact replaces file names, serial numbers and labels in it.
        Standard input that is not a terminal is read as a script. Type 'help' in the shell for its commands.
        """

    /// After a mistake: one line, and where the whole usage is (as most programs do).
    static let helpHint = " (try 'mediashell --help')"

    public init(_ arguments: [String]) throws(ArgumentError) {
        var rest = arguments[...]
        func value(_ option: String, _ inline: String?) throws(ArgumentError) -> String {
            if let inline { return inline }
            guard let next = rest.popFirst() else { throw ArgumentError("mediashell: \(option) needs a value\(Self.helpHint)") }
            return next
        }
        while let argument = rest.popFirst() {
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            switch name {
            case "--camera": camera = try value(name, inline)
            case "-f", "--file": scriptFile = try value(name, inline)
            case "-c", "--command": commands = try value(name, inline)
            case "--download-dir": downloadFolder = try value(name, inline)
            case "--debug-ptp": ptpTraceFile = try value(name, inline)
            case "--debug-ptp-redact": ptpTraceRedacted = true
            case "-n", "--no-config": skipsConfig = true
            case "-h", "--help": throw ArgumentError(Self.usage, isHelp: true)
            default:
                let what = argument.hasPrefix("-") ? "unknown option \(argument)" : "unexpected argument '\(argument)'"
                throw ArgumentError("mediashell: \(SafeText.display(what))\(Self.helpHint)")
            }
        }
        if ptpTraceRedacted && ptpTraceFile == nil {
            throw ArgumentError("mediashell: --debug-ptp-redact needs --debug-ptp FILE\(Self.helpHint)")
        }
        if scriptFile != nil && commands != nil {
            throw ArgumentError("mediashell: -f and -c cannot be used together\(Self.helpHint)")
        }
    }
}
