import Foundation
import MediaFormats
import MediaManager

/// One group of an import before its files have places: its members with what the ledger knows of each,
/// and its number. What it needs to be placed is its date.
public struct PendingGroup: Sendable {
    public struct Member: Sendable {
        public var file: MediaFile
        public var role: MediaGroup.Role
        /// What the ledger recorded for this object (nil: never imported).
        public var entry: LedgerEntry?
        /// To be brought (not imported before, or `--again`).
        public var isNew: Bool
        /// The card whose import brought it home, when `entry` is that import's (`ImportedElsewhere`).
        public var importedFrom: String? = nil
    }

    public var main: MediaFile
    public var members: [Member]
    public var sequence: Int
    /// Its main file's capture time when resolved before the plan was made (nil: the run reads it).
    public var known: ResolvedCaptureTime?
    /// Its main file's listed date (the camera's), for estimates made before the run reads the real one.
    public var listed: ResolvedCaptureTime?

    /// A new member needs the group's capture date for its place; a group imported before keeps its paths.
    public var needsDate: Bool { members.contains { $0.isNew } }

    /// The members that may be downloaded.
    public var newMembers: [MediaFile] { members.filter(\.isNew).map(\.file) }
}

/// Gives groups their places one after another, in the card's order: the pattern's path for the date,
/// then a unique name where a different file (or an earlier member of this import) holds it. Placing the
/// same groups in the same order with the same dates gives the same paths, whether all before the run (a
/// dry run) or each when the run reaches it (its date read from the first bytes of its download).
public struct GroupPlacer: Sendable {
    var clashes: ClashResolver
    let options: ImportOptions
    let now: Date

    /// The seconds added to every capture time (`--shift`).
    public var shift: TimeInterval { options.shift }

    init(options: ImportOptions, now: Date) {
        clashes = ClashResolver(overwrite: options.force)
        self.options = options
        self.now = now
    }

    /// The items of `group`; `time` is the group's capture time (nil, or no time: unknown, the import's
    /// time is used). The shift is applied here; the pattern takes the clock time as written (a UTC time in
    /// the import's zone), the modification time the instant.
    public mutating func place(_ group: PendingGroup, time resolved: ResolvedCaptureTime?) -> [ImportItem] {
        let time = resolved?.time?.shifted(by: options.shift)
        let zone = options.timeZone
        return group.members.enumerated().map { index, member in
            let file = member.file
            if !member.isNew, let entry = member.entry {
                var item = ImportItem(
                    file: file, role: member.role, action: .imported(entry), destination: entry.path, renamed: false,
                    captureTime: entry.takenTime, sequence: entry.sequence ?? 0)
                item.importedFrom = member.importedFrom
                return item
            }
            let values = patternValues(for: file, time: time, sequence: group.sequence)
            let (placement, renamed) = clashes.place(
                options.pattern.path(for: values), size: file.size, captured: time?.instant(assuming: zone),
                knownHash: member.entry?.checksum)
            let action: ImportItem.Action
            switch placement {
            case .write(_, let part): action = .fetch(partBytes: part, overwrite: false)
            case .overwrite: action = .fetch(partBytes: 0, overwrite: true)
            case .alreadyThere: action = .alreadyThere
            }
            var item = ImportItem(
                file: file, role: member.role, action: action, destination: placement.path, renamed: renamed,
                captureTime: time, sequence: group.sequence)
            item.patternValues = values
            if index == 0 { item.datesSetAside = resolved?.setAside ?? [] }
            return item
        }
    }

    /// The values a pattern's tokens take for `file` captured at `time` (already shifted; nil: unknown, the
    /// import's time is used): the first copy's pattern and a backup's own (`--backup PATTERN`) take the
    /// same ones, so that both name a file alike.
    public func patternValues(for file: MediaFile, time: CaptureTime?, sequence: Int) -> PatternValues {
        let patternDate: Date
        let patternZone: TimeZone
        if let time {
            patternDate = Date(timeIntervalSince1970: time.clock(in: options.timeZone))
            patternZone = TimeZone(identifier: "UTC")!
        } else {
            (patternDate, patternZone) = (now, options.timeZone)
        }
        return PatternValues(
            fileName: LocalFileName.sanitize(file.name), cardFolder: file.folder, cameraModel: options.cameraModel,
            date: patternDate, sequence: sequence, timeZone: patternZone)
    }
}
