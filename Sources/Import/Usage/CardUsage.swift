import MediaManager

/// How much of a card is where, and how much of it is not imported yet (not in the camera's import
/// ledger): `du`'s figures, for each folder below the roots asked for and for them all.
public struct CardUsage {
    public struct Totals: Sendable, Equatable {
        public var bytes: UInt64 = 0
        public var files = 0
        /// The bytes and files not imported yet.
        public var newBytes: UInt64 = 0
        public var newFiles = 0

        mutating func add(_ file: MediaFile, isNew: Bool) {
            bytes += file.size
            files += 1
            if isNew {
                newBytes += file.size
                newFiles += 1
            }
        }
    }

    /// Each folder's totals by catalog path: a file counts in its folder and every folder above it, up to
    /// the root it was found under.
    public private(set) var folders: [String: Totals] = [:]
    /// Every file below the roots, each once per root that holds it.
    public private(set) var all = Totals()

    public init(roots: [String], catalog: MediaCatalog, ledgers: CameraLedgers) {
        for root in roots {
            for entry in FileTree.files(under: root, shownUnder: "", in: catalog) {
                guard let file = entry.file else { continue }
                let isNew = ledgers.entry(for: file) == nil
                all.add(file, isNew: isNew)
                var folder = file.folder
                while true {
                    folders[folder, default: Totals()].add(file, isNew: isNew)
                    if folder == root || folder.isEmpty { break }
                    folder = RemotePath.parent(of: folder)
                }
            }
        }
    }
}
