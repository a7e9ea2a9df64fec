import CommandKit
import Foundation
import Mount
import Serve
import Shell
import TerminalKit

/// The program's entry: picks the program (`serve`, `mount`, `devices`, `import`, `verify`, or the shell), returns the exit status.
enum Entrypoint {
    static let version = Shell.version

    static func run(_ arguments: [String]) -> Int32 {
        let args = Array(arguments.dropFirst())
        // `-n` (no config file) before a program of its own changes nothing there: `mediashell -n devices`.
        let program = Array(args.drop { $0 == "-n" || $0 == "--no-config" })
        do {
            switch program.first {
            case "serve":
                let serve = try ServeCommand(arguments: Array(program.dropFirst()))
                if serve.wantsHelp {
                    print(Programs.help(for: ServeCommand.spec))
                    return 0
                }
                return serve.run()
            case "mount":
                let mount = try MountCommand(arguments: Array(program.dropFirst()))
                if mount.wantsHelp {
                    print(Programs.help(for: MountCommand.spec))
                    return 0
                }
                return mount.run()
            case "devices":
                let invocation: Invocation
                do {
                    invocation = try ShellArguments.devicesSpec.parse(commandLine: Array(program.dropFirst()))
                } catch {
                    throw ArgumentError("mediashell: devices: \(error.message) (try 'mediashell --help')")
                }
                return Shell.listDevices(wifiOnly: invocation.has("wifi"))
            case "import":
                let program = try ImportProgram(
                    arguments: Array(program.dropFirst()), skipsConfig: program.count < args.count)
                if program.wantsHelp {
                    print(Programs.help(for: ImportProgram.spec))
                    return 0
                }
                return program.run()
            case "verify":
                let invocation = try ShellArguments.parse(Array(program.dropFirst()), as: ShellArguments.verifySpec)
                if invocation.has("help") {
                    print(Programs.help(for: ShellArguments.verifySpec))
                    return 0
                }
                return Shell.verify(invocation.arguments.map(\.text), repair: invocation.has("repair"))
            case "--man-page":
                print(ManPage.render(table: .standard, programs: Programs.all, version: version), terminator: "")
                return 0
            case "--bash-completion":
                print(BashCompletion.script(programs: Programs.all), terminator: "")
                return 0
            default:
                let shell = try ShellArguments(args)
                if shell.wantsHelp {
                    print(Programs.help(for: ShellArguments.spec))
                    return 0
                }
                if shell.wantsVersion {
                    print("mediashell \(version)")
                    return 0
                }
                if let url = shell.release { return Shell.release(url) }
                return Shell.run(shell)
            }
        } catch let error as ArgumentError {
            if error.isHelp {
                print(error.description)
                return 0
            }
            Console.error(error.description)
            return 2
        } catch {
            Console.error("mediashell: \(error)")
            return 1
        }
    }
}

/// The programs of the executable, each declared once where it lives: their help here, and the man page and
/// the bash completion, are made from these declarations.
enum Programs {
    /// The shell first (its options are the executable's), then the programs named by a first word.
    static let all = [ShellArguments.spec, ServeCommand.spec, MountCommand.spec, ShellArguments.devicesSpec, ImportProgram.spec, ShellArguments.verifySpec]

    /// `--help`: the program's usage, what it does, its options; for the shell also the other programs.
    static func help(for program: CommandSpec) -> String {
        let width = Terminal.columns ?? 80
        guard program.name == ShellArguments.spec.name else {
            return CommandTable([]).help(for: program, width: width, invokedAs: "mediashell \(program.name)")
        }
        let others = all.dropFirst().map { HelpEntry($0.shortSynopsis(invokedAs: "mediashell \($0.name)"), $0.summary) }
        return CommandTable([]).help(for: program.adding([HelpSection("other programs", others)]), width: width)
    }
}
