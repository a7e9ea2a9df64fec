import MediaManager
import POSIX
import TerminalKit
import Words

/// What commands share through their context: the open camera and its catalog, the files and folders that
/// words name, and where downloads go.
extension CommandContext {

    /// The open camera, or an error telling how to open one.
    func requireCamera() throws(CommandError) -> MediaSession {
        guard let media else {
            throw CommandError("no camera is open (use 'open URL', for example 'open sim:')")
        }
        return media
    }

    /// Refuses a command that would change the files of a `sim:PATH` served read-only (its stores say so),
    /// in words that say how to allow it; `doing` is what the command would do (`FolderAccessWords`).
    func refuseChangesToReadOnlyFolder(_ session: MediaSession, _ doing: String) throws(CommandError) {
        guard case .simulator(_?) = session.url, let storages = try? session.camera.storages(), !storages.isEmpty,
            storages.allSatisfy(\.readOnly)
        else { return }
        throw CommandError(FolderAccessWords.refusal(session.url, to: doing))
    }

    /// The camera's catalog, with additions the device reported fetched first. Objects the device could
    /// not describe (or whose names needed repair) are one warning line each, once. A card of which no
    /// file could be read although the camera named objects is an error, never an empty card.
    func loadedCatalog() throws -> MediaCatalog {
        let session = try requireCamera()
        if !session.catalog.isCurrent { try interruptibly(session) { try session.catalog.ensureLoaded() } }
        if let unreadable = session.catalog.unreadable { throw unreadable }
        reportCatalogWarnings(session.catalog)
        return session.catalog
    }

    func reportCatalogWarnings(_ catalog: MediaCatalog) {
        for line in catalog.takeWarnings() { report(line, severity: .warning) }
    }

    /// Names among the catalog, relative to the current folder, and the rows of the last numbered listing.
    func names(_ catalog: MediaCatalog) -> CatalogNames {
        CatalogNames(catalog: catalog, folder: state.folder, numbered: state.numbered)
    }

    /// The selected file as the catalog knows it now.
    func selectedFile(in catalog: MediaCatalog) throws -> MediaFile {
        guard let selected = state.selection else {
            throw CommandError("no file selected (name one, or 'select' one first)")
        }
        guard let fresh = catalog.file(atPath: selected.file.path) else {
            state.fileRemoved(path: selected.file.path)
            throw CommandError("\(SafeText.display(selected.file.name)) is no longer on the camera")
        }
        return fresh
    }

    /// The files `words` name (or the selection when there are none); folders are refused, with a hint that
    /// leads somewhere: `recursive` names the command that takes folders whole (`fetch -r`), else a glob of
    /// the folder's files where it has some.
    func files(for words: [Word], catalog: MediaCatalog, recursive: String? = nil) throws -> [MediaFile] {
        if words.isEmpty { return [try selectedFile(in: catalog)] }
        let entries = try names(catalog).entries(for: words)
        var files: [MediaFile] = []
        for entry in entries {
            guard !entry.isFolder, let file = entry.file else {
                if words.contains(where: { !$0.isGlob && $0.text == entry.shown }) {
                    throw CommandError(folderHint(entry, catalog: catalog, recursive: recursive))
                }
                continue
            }
            files.append(file)
        }
        guard !files.isEmpty else {
            throw CommandError(
                "no files among the names given (only folders)"
                    + (recursive.map { "; '\($0)' takes folders with everything below them" } ?? ""))
        }
        return files
    }

    /// `DCIM is a folder: 'fetch -r DCIM' fetches it with everything below it`, or the files to name.
    private func folderHint(_ entry: RemoteEntry, catalog: MediaCatalog, recursive: String?) -> String {
        let shown = SafeText.display(entry.shown)
        let quoted = SafeText.display(ShellQuoting.escape(entry.shown))
        if let recursive { return "\(shown) is a folder: '\(recursive) \(quoted)' takes it with everything below it" }
        let hasFiles = (catalog.contents(of: entry.path) ?? []).contains { !$0.isFolder }
        return hasFiles
            ? "\(shown) is a folder (name its files, e.g. '\(quoted)/*')"
            : "\(shown) is a folder, and holds only folders"
    }

    /// The folder downloads go to: `-o DIR`, else the `download-dir` setting, `~` expanded.
    func downloadFolder(_ option: Word?) -> String {
        LocalDisk.expandingTilde(option?.text ?? state.settings.downloadFolder)
    }

    /// The download folder as an absolute path, for messages that say where ("kept in", "no .part in").
    var downloadFolderShown: String { LocalDisk.absolute(downloadFolder(nil)) }

    /// The single file `word` names; globs must match exactly one file.
    func oneFile(for word: Word, in catalog: MediaCatalog, command: String) throws -> MediaFile {
        let entries = try names(catalog).entries(for: word)
        let files = entries.compactMap { $0.isFolder ? nil : $0.file }
        guard files.count == 1, let file = files.first else {
            if files.isEmpty { throw CommandError("\(SafeText.display(word.text)) is a folder, not a file") }
            throw CommandError("'\(SafeText.display(word.text))' matches \(files.count) files; \(command) takes one")
        }
        return file
    }

    /// Where the `.part` of `file` would be in the download folder.
    func partPath(of file: MediaFile, in folder: String? = nil) -> String {
        LocalDisk.join(folder ?? downloadFolder(nil), LocalFileName.sanitize(file.name) + ".part")
    }

    /// The size of the `.part` of `file`, when there is one.
    func partialSize(of file: MediaFile, in folder: String? = nil) -> UInt64? {
        LocalDisk.regularFileSize(partPath(of: file, in: folder))
    }
}
