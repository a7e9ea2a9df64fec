import Foundation

/// lcd [DIR]: changes this process's current folder (the home folder with no DIR).
struct LcdCommand: ShellCommand {
    let spec = CommandSpec(
        "lcd", area: .session, arguments: [ArgumentSpec("DIR", .localFolder, .optional)],
        summary: "change the local folder",
        details: "Changes the folder on this computer that downloads go to (unless `set download-dir` names "
            + "another) and that local paths start from; with no DIR, goes to the home folder.")

    func run(_ invocation: Invocation, in shell: Interpreter) throws -> CommandOutcome {
        let target = LocalDisk.expandingTilde(invocation.arguments.first?.text ?? "~")
        guard LocalDisk.isFolder(target) else {
            throw CommandError("no such folder: \(SafeText.display(target))")
        }
        guard FileManager.default.changeCurrentDirectoryPath(target) else {
            throw CommandError("cannot go to \(SafeText.display(target))")
        }
        return .success
    }
}
