import Foundation
import Serve
import Shell
import TerminalKit
import TerminalKit

/// The program's entry: picks the program (`serve`, `devices`, or the shell), returns the exit status.
enum Entrypoint {
    static let version = Shell.version

    static func run(_ arguments: [String]) -> Int32 {
        let args = Array(arguments.dropFirst())
        // `-n` (no config file) before a program of its own changes nothing there: `mediashell -n devices`.
        let program = Array(args.drop { $0 == "-n" || $0 == "--no-config" })
        do {
            switch program.first {
            case "serve":
                return try ServeCommand(arguments: Array(program.dropFirst())).run()
            case "devices":
                guard program.count == 1 else { throw ArgumentError("mediashell: devices takes no arguments") }
                return Shell.listDevices()
            case "--man-page":
                print(ManPage.render(table: .standard, version: version), terminator: "")
                return 0
            case "--bash-completion":
                print(BashCompletion.script(), terminator: "")
                return 0
            case "--version", "-V":
                print("mediashell \(version)")
                return 0
            default:
                return Shell.run(try ShellArguments(args))
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
