import CommandKit
import Foundation
import POSIX
import TerminalKit

/// source FILE: runs a script file's lines, nested at most `Interpreter.maximumScriptDepth` deep.
struct SourceCommand: ShellCommand {
    let spec = CommandSpec(
        "source", area: .session, arguments: [ArgumentSpec("FILE", .localPath)],
        summary: "run the commands of a script file",
        details: "Runs FILE line by line as a script: it stops at the first failure unless the line starts with -.",
        examples: ["source ~/import.msh"])

    func run(_ invocation: Invocation, in shell: any SessionContext) throws -> CommandOutcome {
        guard let path = invocation.arguments.first?.text else { return .success }
        guard shell.locations.count < Interpreter.maximumScriptDepth else {
            throw CommandError(
                "scripts nested more than \(Interpreter.maximumScriptDepth) deep (does one source itself?)")
        }
        let expanded = LocalDisk.expandingTilde(path)
        guard !LocalDisk.isDirectory(expanded) else { throw CommandError("\(SafeText.display(path)) is a folder") }
        let reader: PlainLineReader
        do {
            reader = try PlainLineReader(path: expanded, interrupt: shell.interrupt as? Interrupt)
        } catch {
            throw CommandError("cannot read \(SafeText.display(path)): \(String(cString: strerror(error.errno)))")
        }
        switch shell.runScript(reader, name: path) {
        case .finished(let failed): return failed ? .failed : .success
        case .stopped: return .failed
        case .interrupted: return .interrupted
        case .quit(let failed):
            shell.quitRequested = true
            return failed ? .failed : .success
        }
    }
}
