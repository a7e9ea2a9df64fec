import CommandKit
import TerminalKit

/// The command line of the shell itself, declared once (`spec`): the parser of the shell's commands reads
/// it, and `--help`, the man page and the bash completion are made from the same declaration.
public struct ShellArguments: Equatable {
    public var camera: String?
    public var scriptFile: String?
    public var commands: String?
    public var downloadFolder: String?
    /// The GUID to give Wi-Fi cameras (`--ptpip-guid HEX`), as typed: the `ptpip-guid` setting.
    public var ptpipGUID: String?
    /// `--writable`: a `sim:PATH` may change the files in PATH (the `writable` setting).
    public var writable = false
    /// Where to write a trace of every PTP container (`--debug-ptp FILE`), for reporting a camera.
    public var ptpTraceFile: String?
    /// Replace object names, serial numbers and labels in that trace (`--debug-ptp-redact`).
    public var ptpTraceRedacted = false
    /// `--release URL`: ask gvfs to let go of that USB camera, say who else holds it, and exit.
    public var release: String?
    /// Skip the config file (`-n`, `--no-config`).
    public var skipsConfig = false
    /// `--help` or `--version` was given: print that and exit (the caller knows every program's help).
    public var wantsHelp = false
    public var wantsVersion = false

    /// `mediashell [OPTIONS]`: the shell.
    public static let spec = CommandSpec(
        "mediashell", area: .program,
        options: [
            OptionSpec("camera", long: "camera", value: ArgumentSpec("URL", .cameraURL),
                "open the camera at URL (see CAMERA URLS); else 'set camera' of the config file, else the USB camera attached"),
            OptionSpec("file", short: "f", long: "file", value: ArgumentSpec("SCRIPT", .localPath),
                "run the commands of SCRIPT and exit"),
            OptionSpec("command", short: "c", long: "command", value: ArgumentSpec("CMDS", .text),
                "run CMDS (';' or newlines between them) and exit"),
            OptionSpec("download-dir", long: "download-dir", value: ArgumentSpec("DIR", .localFolder),
                "where fetch writes (the download-dir setting)"),
            OptionSpec("ptpip-guid", long: "ptpip-guid", value: ArgumentSpec("HEX", .text),
                "the GUID to give Wi-Fi cameras instead of this computer's own (the ptpip-guid setting)"),
            OptionSpec("writable", long: "writable",
                "let a sim:PATH camera change the files in PATH (delete, put, mkdir, capture), as serve --writable; it is read-only otherwise (the writable setting)"),
            OptionSpec("no-config", short: "n", long: "no-config", "do not run the config file"),
            OptionSpec("release", long: "release", value: ArgumentSpec("URL", .cameraURL),
                "ask gvfs to let go of the USB camera at URL (gio mount -u), name any other program or driver holding it, and exit"),
            OptionSpec("debug-ptp", long: "debug-ptp", value: ArgumentSpec("FILE", .localPath),
                "write every PTP container exchanged with the camera to FILE (attach it when reporting a camera)"),
            OptionSpec("debug-ptp-redact", long: "debug-ptp-redact",
                "replace file names, serial numbers and labels in that trace"),
            OptionSpec("help", short: "h", long: "help", "print this help and exit"),
            OptionSpec("version", short: "V", long: "version", "print the version and exit"),
        ],
        summary: "a shell for the photos and videos on a camera or drone",
        details: """
            Camera URLs: usb:, usb:BUS,ADDR, usb:VVVV:PPPP, usb:serial=SERIAL, usb:model=NAME, \
            ptpip:HOST[:PORT[:EVENTPORT]], fuji:HOST[:PORT[:EVENTPORT]], dir:PATH, sim:, sim:PATH. \
            With no --camera, the USB camera attached is opened; with none, a prompt opens the demo card (sim:) \
            and a script exits 1; with several, a prompt opens the first and names the others, and a script \
            exits 1 with the list ('mediashell devices' shows it too). \
            The config file ($XDG_CONFIG_HOME/mediashell/config, else ~/.config/mediashell/config) runs first, \
            in the shell's own syntax (set, alias); -n (--no-config) skips it. 'set camera URL' there names the \
            camera to open when --camera is not given. \
            Standard input that is not a terminal is read as a script. Type 'help' in the shell for its commands.
            """,
        examples: ["mediashell", "mediashell --camera ptpip:192.168.1.1", "mediashell -c 'cd DCIM; ls -l'",
            "mediashell -f import.msh"])

    /// `mediashell devices [--wifi]`: the USB cameras attached and the Wi-Fi cameras that announce themselves.
    public static let devicesSpec = CommandSpec(
        "devices", area: .program,
        options: [OptionSpec("wifi", long: "wifi", "ask only the network (SSDP and mDNS), not USB")],
        summary: "list the USB cameras attached and the Wi-Fi cameras announcing themselves (about 2 s), with the URL that opens each, and exit")

    /// `mediashell verify [--repair] [DIR...]`: imported copies re-checked (and repaired), no camera needed.
    public static let verifySpec = CommandSpec(
        "verify", area: .program,
        options: [OptionSpec("help", short: "h", long: "help", "print this help and exit"), VerifyCommand.repairOption],
        arguments: [ArgumentSpec("DIR", .localFolder, .zeroOrMore)],
        summary: "re-check imported copies against their checksums (the ledgers', and the manifests in each DIR), and exit",
        details: """
            Reads every copy the import ledgers record (with DIRs: the manifests at their roots and the \
            ledgers' copies under them) again from the disk and compares its checksum with the one its \
            bytes had when they arrived from the camera. One line per problem on standard error, a summary on \
            standard output; exit status 1 when a copy is missing, of another size, changed or unreadable \
            (with --repair: when one of them could not be repaired). No camera is open here: to fetch a \
            file from its camera again, run 'verify --repair' in the shell with that camera open. \
            \(VerifyCommand.repairDetails)
            """,
        examples: ["mediashell verify", "mediashell verify ~/Pictures /media/ssd/Photos", "mediashell verify --repair"])

    /// The command line of a program named by the first word (`mediashell verify ...`), checked against its
    /// spec by the shell's parser; a mistake is one line naming where its help is.
    public static func parse(_ arguments: [String], as spec: CommandSpec) throws(ArgumentError) -> Invocation {
        do {
            return try spec.parse(commandLine: arguments)
        } catch {
            throw ArgumentError("\(error.description) (try 'mediashell \(spec.name) --help')")
        }
    }

    /// After a mistake: one line, and where the whole usage is (as most programs do).
    static let helpHint = " (try 'mediashell --help')"

    /// The shell's options, checked.
    public init(_ arguments: [String]) throws(ArgumentError) {
        let invocation: Invocation
        do {
            invocation = try Self.spec.parse(commandLine: arguments)
        } catch {
            throw ArgumentError("mediashell: \(error.message)\(Self.helpHint)")
        }
        wantsHelp = invocation.has("help")
        wantsVersion = invocation.has("version")
        camera = invocation.value(of: "camera")?.text
        scriptFile = invocation.value(of: "file")?.text
        commands = invocation.value(of: "command")?.text
        downloadFolder = invocation.value(of: "download-dir")?.text
        ptpipGUID = invocation.value(of: "ptpip-guid")?.text
        ptpTraceFile = invocation.value(of: "debug-ptp")?.text
        ptpTraceRedacted = invocation.has("debug-ptp-redact")
        skipsConfig = invocation.has("no-config")
        writable = invocation.has("writable")
        release = invocation.value(of: "release")?.text
        if ptpTraceRedacted && ptpTraceFile == nil {
            throw ArgumentError("mediashell: --debug-ptp-redact needs --debug-ptp FILE\(Self.helpHint)")
        }
        if scriptFile != nil && commands != nil {
            throw ArgumentError("mediashell: -f and -c cannot be used together\(Self.helpHint)")
        }
    }
}
