import MediaManager

/// The catalog's state in words, for `refresh` and `state`.
enum CatalogDescription {
    /// `up-to-date: 10 files in 3 folders`, with what the state means when it is not plain.
    static func line(for catalog: MediaCatalog) -> String {
        let files = catalog.allFiles().count
        let folders = catalog.folderPaths.count
        let counts = "\(files) file\(files == 1 ? "" : "s") in \(folders) folder\(folders == 1 ? "" : "s")"
        switch catalog.state {
        case .upToDate: return "up-to-date: \(counts)"
        case .incomplete:
            return "incomplete: \(counts); the camera reported changes or a folder could not be read "
                + "('refresh' reads it all again)"
        case .syncing: return "syncing: reading the file list"
        case .deleting: return "deleting: \(counts)"
        case .reset: return "reset: the file list will be read again at the next command that needs it"
        }
    }
}
