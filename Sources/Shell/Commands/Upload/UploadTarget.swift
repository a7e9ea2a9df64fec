import MediaManager
import TerminalKit

/// Where `put`, `mkdir` and `rmdir` act on the camera, checked before anything is sent: the camera must
/// offer the operation, and a named folder must be one folder of the catalog.
enum UploadTarget {
    /// The session, once its DeviceInfo offers uploads (SendObjectInfo and SendObject) and it is no folder
    /// served read-only; `doing` is what the command would do there (`FolderAccessWords`).
    static func uploadingSession(_ shell: any CommandContext, _ command: String, doing: String) throws -> MediaSession {
        let session = try shell.requireCamera()
        try shell.refuseChangesToReadOnlyFolder(session, doing)
        guard session.camera.canUpload else {
            throw CommandError(
                "this camera does not take uploads (its DeviceInfo offers no SendObjectInfo and SendObject), "
                    + "so \(command) cannot work here")
        }
        return session
    }

    /// The catalog path of the one folder `word` names ("" the top).
    static func folder(_ word: Word, _ shell: any CommandContext, catalog: MediaCatalog) throws -> String {
        if RemotePath.resolve(word.text, from: shell.state.folder).isEmpty { return "" }
        let folders = try shell.names(catalog).entries(for: word).filter(\.isFolder)
        guard folders.count == 1, let folder = folders.first else {
            if folders.isEmpty { throw CommandError("not a folder on the camera: \(SafeText.display(word.text))") }
            throw CommandError("'\(SafeText.display(word.text))' matches \(folders.count) folders; name one")
        }
        return folder.path
    }

    /// A name for a new object on the camera: not empty, not `.` or `..`, no `/` and no control characters.
    static func checkedName(_ name: String) throws -> String {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"),
            !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { throw CommandError("not a name the camera can take: \(SafeText.display(name))") }
        return name
    }
}
