import CommandKit
import Foundation
import POSIX
import TerminalKit

/// lcd [DIR|-]: changes this process's current folder: to `$HOME` with no DIR, `~` expanded from `$HOME`,
/// `-` back to the folder before.
struct LcdCommand: ShellCommand {
    let spec = CommandSpec(
        "lcd", area: .local, arguments: [ArgumentSpec("DIR", .localFolder, .optional)],
        summary: "change the local folder",
        details: "Changes the folder on this computer that downloads go to (unless `set download-dir` names "
            + "another) and that local paths start from; with no DIR, goes to the home folder ($HOME); "
            + "'lcd -' goes back to the folder before, and prints it.",
        examples: ["lcd ~/Pictures", "lcd", "lcd -"])

    func run(_ invocation: Invocation, in shell: any SessionContext) throws -> CommandOutcome {
        let typed = invocation.arguments.first?.text ?? "~"
        let here = LocalDisk.currentFolder
        var target = LocalDisk.expandingTilde(typed)
        if typed == "-" {
            guard let previous = shell.previousLocalFolder else { throw CommandError("no folder before this one") }
            target = previous
        }
        guard LocalDisk.isDirectory(target) else {
            throw CommandError("no such folder: \(SafeText.display(target))")
        }
        guard FileManager.default.changeCurrentDirectoryPath(target) else {
            throw CommandError("cannot go to \(SafeText.display(target))")
        }
        shell.previousLocalFolder = here
        if typed == "-" { shell.output.line(SafeText.display(LocalDisk.currentFolder)) }
        return .success
    }
}
