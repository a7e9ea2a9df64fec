import MediaManager

/// edit, done, delete (rm): deletes are deliberate, so they need edit mode or --force, and each file's
/// result is reported.
extension Interpreter {
    func edit() {
        if state.enterEditMode() {
            output.line("edit mode: 'delete NAME' removes files from the camera; 'done' leaves")
        } else {
            output.line("already in edit mode")
        }
    }

    func done() {
        if !state.leaveEditMode() { output.line("not in edit mode") }
    }

    func delete(_ invocation: Invocation) throws {
        let session = try requireCamera()
        guard state.isEditing || invocation.has(.force) else {
            throw CommandError("refused: not in edit mode (type 'edit' first, or use delete --force)")
        }
        let catalog = try loadedCatalog()
        let entries = try names(catalog).entries(for: invocation.arguments)
        if let folder = entries.first(where: \.isFolder) {
            throw CommandError(
                "\(SafeText.display(folder.shown)) is a folder; nothing was deleted (name the files in it)")
        }
        let files = entries.compactMap(\.file)
        guard session.camera.summary.canDelete else { throw CommandError("this camera does not delete files") }
        var failures = 0
        var lost: Error?
        _ = session.delete(files) { file, error in
            if let error {
                failures += 1
                if lost == nil && Self.isDisconnect(error) { lost = error }
                if lost == nil {
                    self.report(
                        "delete: \(RemotePath.display(file.path)): \(Self.message(for: error))" + self.modeHint(for: error))
                }
            } else {
                self.output.line("deleted \(RemotePath.display(file.path))")
                self.state.fileRemoved(path: file.path)
            }
        }
        if let lost {
            reportFailure(of: "delete", lost)
            throw FailureReported()
        }
        if failures > 0 { throw FailureReported() }
    }
}
