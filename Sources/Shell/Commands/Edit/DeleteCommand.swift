import CommandKit
import MediaManager
import TerminalKit
import Words

/// delete (rm) NAME|GLOB...: deletes are deliberate, so they need edit mode or --force; each file's result
/// is a line, and a camera that goes away mid-batch is said once.
struct DeleteCommand: ShellCommand {
    let spec = CommandSpec(
        "delete", aliases: ["rm"], area: .edit,
        options: [OptionSpec(.force, long: "force", "delete outside edit mode")],
        arguments: [ArgumentSpec("NAME|GLOB", .remoteName, .oneOrMore)],
        summary: "delete files from the camera",
        details: "Deletes each named file and reports each result. Needs edit mode, or --force.",
        examples: ["edit; delete DJI_0001.JPG; done", "delete --force *.LRF", "rm 'My Clip.MP4'"])

    func run(_ invocation: Invocation, in shell: any JobContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        try shell.refuseChangesToReadOnlyFolder(session, FolderAccessWords.deleting)
        guard shell.state.isEditing || invocation.has(.force) else {
            throw CommandError("refused: not in edit mode (type 'edit' first, or use delete --force)")
        }
        let catalog = try shell.loadedCatalog()
        let entries = try shell.names(catalog).entries(for: invocation.arguments)
        if let folder = entries.first(where: \.isFolder) {
            throw CommandError(
                "\(SafeText.display(folder.shown)) is a folder; nothing was deleted (name the files in it)")
        }
        let files = entries.compactMap(\.file)
        try shell.refuseFilesOfRunningJobs(files, "delete")
        guard session.camera.summary.canDelete else { throw CommandError("this camera does not delete files") }
        var failures = 0
        var lost: Error?
        _ = session.delete(files) { file, error in
            if let error {
                failures += 1
                if lost == nil && Interpreter.isDisconnect(error) { lost = error }
                if lost == nil {
                    shell.report(
                        "delete: \(RemotePath.display(file.path)): \(Interpreter.message(for: error))"
                            + shell.modeHint(for: error))
                }
            } else {
                shell.output.note("deleted \(RemotePath.display(file.path))")
                shell.state.fileRemoved(path: file.path)
            }
        }
        if let lost {
            shell.reportFailure(of: "delete", lost)
            return .failed
        }
        return .failed(if: failures)
    }
}
