import CommandKit
import MediaManager
import TerminalKit
import Words

/// mkdir FOLDER: makes a folder on the camera (SendObjectInfo of an association), where it takes uploads.
struct MkdirCommand: ShellCommand {
    let spec = CommandSpec(
        "mkdir", area: .edit, arguments: [ArgumentSpec("FOLDER", .remoteFolder, .one)],
        summary: "make a folder on the camera",
        details: "Makes FOLDER (in the current folder, or under the folder its path names) where the camera takes uploads.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try UploadTarget.uploadingSession(shell, "mkdir", doing: FolderAccessWords.makingFolders)
        let catalog = try shell.loadedCatalog()
        guard let word = invocation.arguments.first else { return .success }
        let full = RemotePath.resolve(word.text, from: shell.state.folder)
        let parent = RemotePath.parent(of: full)
        let checked = try UploadTarget.checkedName(String(full.dropFirst(parent.isEmpty ? 0 : parent.count + 1)))
        guard catalog.contents(of: parent) != nil else {
            throw CommandError("no such folder on the camera: \(RemotePath.display(parent))")
        }
        if (catalog.contents(of: parent) ?? []).contains(where: { $0.name == checked }) {
            throw CommandError("\(RemotePath.display(full)) already exists")
        }
        do {
            try session.makeFolder(checked, in: parent)
        } catch {
            throw CommandError("\(RemotePath.display(full)): \(Interpreter.message(for: error))")
        }
        shell.output.note("made \(RemotePath.display(full))")
        return .success
    }
}
