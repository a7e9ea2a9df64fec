import MediaFormats
import MediaManager
import POSIX

/// Which files of a card an import takes: by default every file in a DCIM folder of every store
/// (`DCIM/…`, or `store_…/DCIM/…` on a camera with two cards); or those under the folders named; each
/// with the sidecars of its group, in the catalog's order.
public enum CardSelection {
    /// Every file under a top-level DCIM folder of every store.
    public static func dcimFiles(in catalog: MediaCatalog) -> [MediaFile] {
        catalog.allFiles().filter { isInDCIM($0.folder) }
    }

    static func isInDCIM(_ folder: String) -> Bool {
        let parts = folder.split(separator: "/")
        guard let first = parts.first else { return false }
        if first.uppercased() == "DCIM" { return true }
        return first.hasPrefix("store_") && parts.count > 1 && parts[1].uppercased() == "DCIM"
    }

    /// Every file at or below each folder path (as the catalog spells it, "" for the whole card).
    public static func files(under folders: [String], in catalog: MediaCatalog) -> [MediaFile] {
        let all = catalog.allFiles()
        var seen = Set<String>()
        var result: [MediaFile] = []
        for folder in folders {
            for f in all where folder.isEmpty || f.folder == folder || f.folder.hasPrefix(folder + "/") {
                if seen.insert(f.path).inserted { result.append(f) }
            }
        }
        return result
    }

    /// The groups of `files`, each completed with its sidecars from the catalog, in the catalog's order.
    public static func groups(for files: [MediaFile], in catalog: MediaCatalog) -> [MediaGroup] {
        // One pass over the card: each (folder, stem) with its members, so that completing every file's
        // group costs a lookup (asking the catalog file by file scanned the folder each time: 1,000 photos
        // in one folder took 0.3 s of string folding).
        let all = catalog.allFiles()
        var byStem: [String: [String]] = [:]
        for f in all where !f.isFolder { byStem[MediaGroup.key(of: f), default: []].append(f.path) }
        var chosen = Set<String>()
        for f in files where !f.isFolder {
            chosen.insert(f.path)
            for path in byStem[MediaGroup.key(of: f)] ?? [] { chosen.insert(path) }
        }
        var ordered = all.filter { chosen.contains($0.path) }
        // Files the catalog no longer lists (removed meanwhile) are dropped; files given but not listed
        // (a caller's own list) keep their place at the end.
        let listed = Set(ordered.map(\.path))
        ordered += files.filter { !$0.isFolder && !listed.contains($0.path) }
        return MediaGroup.grouping(ordered)
    }
}

/// The import of one open camera, from its files to a plan.
public enum Importer {
    /// The ledgers of the open camera, in `folder` (`LedgerLocation.folder()` by default).
    public static func ledgers(for session: MediaSession, folder: String = LedgerLocation.folder()) throws -> CameraLedgers {
        let storages = (try? session.camera.storages()) ?? []
        return try CameraLedgers(folder: folder, summary: session.camera.summary, storages: storages)
    }

    /// The files of `groups` that this camera's ledgers do not know but another card's import brought home
    /// (`ImportedElsewhere`, against every other ledger in `folder`) into `root`, the import's destination,
    /// by camera path. A camera that cannot read ranges is not asked: its "first bytes" would be the
    /// whole file.
    public static func importedElsewhere(
        _ groups: [MediaGroup], session: MediaSession, ledgers: CameraLedgers, folder: String, root: String,
        cancellation: Cancellation = .never
    ) -> [String: ElsewhereMatch] {
        let files = groups.flatMap { [$0.main] + $0.followers }.filter { ledgers.entry(for: $0) == nil }
        // The other ledgers are read only when there is something new to look for.
        guard session.camera.canReadRanges, !files.isEmpty else { return [:] }
        let content = ImportedContent(folder: folder, excluding: Set(ledgers.all.map(\.path)))
        return ImportedElsewhere.find(
            files, in: content, within: ImportRun.absolute(root), readFirst: { file, count in try session.byteSource(for: file).read(offset: 0, count: count) },
            cancellation: cancellation)
    }

    /// Plans the import of `groups`, reading each new group's EXIF date from the camera where it has one.
    /// With `datesFromDownload` (a run, not a dry run) a JPEG's date is left for the run to read from the
    /// first bytes of its download (`ImportRun`), on a camera that reads ranges, so that no photo costs a
    /// request for its header and another for its bytes.
    public static func plan(
        _ groups: [MediaGroup], session: MediaSession, options: ImportOptions, ledgers: CameraLedgers?,
        elsewhere: [String: ElsewhereMatch] = [:], datesFromDownload: Bool = false, firstRequest: Int = 8 << 20
    ) -> ImportPlan {
        var options = options
        if options.cameraModel.isEmpty { options.cameraModel = session.camera.summary.model }
        // A file whose time was not read in this session yet is dated by the first bytes of its download
        // when they hold it: a JPEG's EXIF, a video that fits the first request.
        let deferred: ((MediaFile) -> Bool)? =
            datesFromDownload && session.camera.canReadRanges
            ? { ImportRun.datedByFirstBytes($0, firstRequest: firstRequest) && session.captureTimes.known($0) == nil } : nil
        return ImportPlanner.plan(
            groups, options: options, ledgers: ledgers, elsewhere: elsewhere, datedByContent: deferred,
            known: { session.captureTimes.known($0) }, listed: { session.shownCaptureTime($0).time }
        ) { file in session.resolveCaptureTime(file) }
    }
}
