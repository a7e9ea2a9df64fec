import CommandKit
import MediaManager
import TerminalKit
import Words

/// rmdir FOLDER: deletes an empty folder from the camera (DeleteObject), where it offers deletes.
struct RmdirCommand: ShellCommand {
    let spec = CommandSpec(
        "rmdir", area: .edit, arguments: [ArgumentSpec("FOLDER", .remoteFolder, .one)],
        summary: "delete an empty folder from the camera",
        details: "Deletes FOLDER from the camera when it is empty (delete its files first).")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        try shell.refuseChangesToReadOnlyFolder(session, FolderAccessWords.deleting)
        guard session.camera.summary.canDelete else {
            throw CommandError("this camera does not delete (its DeviceInfo offers no DeleteObject), so rmdir cannot work here")
        }
        let catalog = try shell.loadedCatalog()
        guard let word = invocation.arguments.first else { return .success }
        let path = try UploadTarget.folder(word, shell, catalog: catalog)
        guard !path.isEmpty, let folder = catalog.file(atPath: path), folder.id != 0 else {
            throw CommandError("\(SafeText.display(word.text)) is the top of the camera or a store, not a folder rmdir deletes")
        }
        let inside = catalog.contents(of: path) ?? []
        guard inside.isEmpty else {
            throw CommandError("\(RemotePath.display(path)) is not empty (\(inside.count) \(inside.count == 1 ? "item" : "items")); nothing was deleted")
        }
        do {
            try session.delete(folder)
        } catch {
            throw CommandError("\(RemotePath.display(path)): \(Interpreter.message(for: error))")
        }
        if shell.state.folder == path || shell.state.folder.hasPrefix(path + "/") {
            shell.state.changeFolder(to: RemotePath.parent(of: path))
        }
        shell.output.note("deleted folder \(RemotePath.display(path))")
        return .success
    }
}
