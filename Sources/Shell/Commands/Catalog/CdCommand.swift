import CommandKit
import MediaManager
import TerminalKit

/// cd [FOLDER]: changes the current folder on the camera (the top with no FOLDER).
struct CdCommand: ShellCommand {
    let spec = CommandSpec(
        "cd", area: .catalog, arguments: [ArgumentSpec("FOLDER", .remoteFolder, .optional)],
        summary: "change the camera folder",
        details: "Changes the current folder on the camera; with no FOLDER, goes to the top.",
        examples: ["cd DCIM/100MEDIA", "cd ..", "cd /", "cd"])

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let catalog = try shell.loadedCatalog()
        guard let word = invocation.arguments.first else {
            shell.state.changeFolder(to: "")
            return .success
        }
        let entries = try shell.names(catalog).entries(for: word)
        let folders = entries.filter(\.isFolder)
        guard folders.count == 1, let target = folders.first else {
            if folders.isEmpty { throw CommandError("not a folder: \(SafeText.display(word.text))") }
            throw CommandError("'\(SafeText.display(word.text))' matches \(folders.count) folders; cd goes to one")
        }
        shell.state.changeFolder(to: target.path)
        return .success
    }
}
