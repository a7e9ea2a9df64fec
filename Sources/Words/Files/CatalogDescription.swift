import CameraFacts
import TextKit

/// The catalog's state in words, for `refresh` and `state`.
public enum CatalogDescription {
    /// `up-to-date: 10 files in 3 folders`, with what the state means when it is not plain.
    public static func line(for catalog: CatalogStatus) -> String {
        let files = catalog.fileCount
        let folders = catalog.folderCount
        let counts = "\(files) file\(files == 1 ? "" : "s") in \(folders) folder\(folders == 1 ? "" : "s")"
        if let unreadable = catalog.unreadable, catalog.state != .syncing, catalog.state != .reset {
            return "unreadable: " + SafeText.display(ErrorWords.sentence(for: unreadable))
        }
        switch catalog.state {
        case .upToDate: return "up-to-date: \(counts)"
        case .incomplete:
            let why = catalog.incompleteBecause
            guard !why.isEmpty else {
                return "incomplete: \(counts); the camera reported changes not read yet ('refresh' reads it all again)"
            }
            return "incomplete: \(counts); left out at the last reading ('refresh' reads it all again):\n"
                + why.prefix(20).map { "  " + SafeText.display($0) }.joined(separator: "\n")
                + (why.count > 20 ? "\n  and \(why.count - 20) more" : "")
        case .syncing: return "syncing: reading the file list"
        case .deleting: return "deleting: \(counts)"
        case .reset: return "reset: the file list will be read again at the next command that needs it"
        }
    }
}
