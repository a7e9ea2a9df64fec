import Foundation
import MediaFormats
import MediaManager

/// One file of an import: where it goes and what the run will do with it.
public struct ImportItem: Sendable {
    public enum Action: Sendable, Equatable {
        /// Download it (continuing a `.part` of `partBytes`, or replacing a different file).
        case fetch(partBytes: UInt64, overwrite: Bool)
        /// The same file is at the destination already: recorded in the ledger, not downloaded.
        case alreadyThere
        /// The ledger says it was imported (to `entry.path`): left alone.
        case imported(LedgerEntry)
    }

    public var file: MediaFile
    public var role: MediaGroup.Role
    public var action: Action
    /// The local path (for `.imported`, where it went then).
    public var destination: String
    /// The pattern's name was taken by a different file: this one got a unique name.
    public var renamed: Bool
    /// The capture time (shifted as `--shift` asks): the pattern's date and the file's modification time.
    public var captureTime: CaptureTime?
    /// The nonsense times passed over for it (`EXIF 1970`), on the group's main file only.
    public var datesSetAside: [String] = []
    public var sequence: Int
    /// The values its pattern took (a file placed by this import): a backup with a pattern of its own
    /// names its copy from them.
    public var patternValues: PatternValues?
    /// For `.imported`: the card whose import brought it home (`ImportedElsewhere`, the entry its copy
    /// there), to be recorded in this camera's ledger by the run; nil: this camera's own ledger has it.
    public var importedFrom: String?

    /// Bytes still to download.
    public var bytesToFetch: UInt64 {
        if case .fetch(let part, _) = action { return file.size - min(part, file.size) }
        return 0
    }
}

/// What an import will do, worked out before any byte moves: the dry run prints it, the free-space check
/// sums it, the run executes it. A plan for a run may leave groups unplaced: from the first whose date is
/// read from its main file's first bytes on (a JPEG's EXIF), so that the run reads those bytes once, for
/// the date and for the file.
public struct ImportPlan: Sendable {
    public var items: [ImportItem]
    /// The folder the pattern writes under.
    public var root: String
    /// The highest `%n` used.
    public var lastSequence: Int
    /// Groups the run places when it reaches them, after `items`, in order.
    public var unplaced: [PendingGroup] = []
    /// Places `unplaced`, with the names `items` took already given out.
    public var placer: GroupPlacer

    public var toFetch: [ImportItem] { items.filter { if case .fetch = $0.action { true } else { false } } }
    public var alreadyImported: [ImportItem] { items.filter { if case .imported = $0.action { true } else { false } } }
    public var alreadyThere: [ImportItem] { items.filter { $0.action == .alreadyThere } }
    /// The files other cards' imports brought home, by card, in the order of their first file (placed or
    /// left to the run).
    public var importedFromOtherCards: [(card: String, count: Int)] {
        var counts: [(card: String, count: Int)] = []
        let cards = items.map(\.importedFrom) + unplaced.flatMap(\.members).map { $0.isNew ? nil : $0.importedFrom }
        for card in cards {
            guard let card else { continue }
            if let i = counts.firstIndex(where: { $0.card == card }) { counts[i].count += 1 } else { counts.append((card, 1)) }
        }
        return counts
    }
    /// The new files of the unplaced groups (fetched unless the same file turns out to be there).
    public var unplacedFiles: [MediaFile] { unplaced.flatMap(\.newMembers) }
    /// Bytes still to download, what a `.part` left by an earlier run holds not counted (a resumed download
    /// fetches only the rest). The unplaced groups are placed for this as the run places them, at their
    /// capture times known for them (read before in this session, or by `times`), else at the camera's
    /// date: a `.part` is looked for in the folder of the day the photo was shot.
    public var bytesToFetch: UInt64 { bytesToFetch(times: { $0.known }) }

    /// Bytes still to download, the unplaced groups placed at the times `times` gives.
    public func bytesToFetch(times: (PendingGroup) -> ResolvedCaptureTime?) -> UInt64 {
        var tentative = placer
        let later = unplaced.flatMap { tentative.place($0, time: times($0) ?? $0.listed) }
        return (items + later).reduce(0) { $0 + $1.bytesToFetch }
    }
}

/// What to import and how.
public struct ImportOptions: Sendable {
    public var pattern: DestinationPattern
    /// Ignore the ledger: bring files imported before too (`--again`).
    public var again = false
    public var sidecars = true
    public var proxies = true
    /// Replace different files at the destination, and start despite too little free space (`--force`).
    public var force = false
    public var cameraModel = ""
    /// Added to every capture time (`--shift`, a camera whose clock was wrong), in seconds.
    public var shift: TimeInterval = 0
    /// Where times without a zone were shot (`--tz`): their files' modification times are read in it, and
    /// a UTC time (an MP4 header) is named by its day there.
    public var timeZone: TimeZone = .current

    public init(pattern: DestinationPattern) { self.pattern = pattern }
}

/// Builds an import plan from the files chosen on the card.
public enum ImportPlanner {
    /// `groups` are the chosen media with their sidecars; `ledgers` say which are imported (nil: none),
    /// and `elsewhere` (by camera path) which other cards' imports brought home;
    /// `captureTime` gives each group's capture time (`MediaSession.resolveCaptureTime`); `known` the one
    /// already resolved, for groups left to the run. From the first new group whose main file
    /// `datedByContent` names on, groups are left unplaced for the run (nil: none).
    public static func plan(
        _ groups: [MediaGroup], options: ImportOptions, ledgers: CameraLedgers?,
        elsewhere: [String: ElsewhereMatch] = [:], now: Date = Date(), datedByContent: ((MediaFile) -> Bool)? = nil,
        known: (MediaFile) -> ResolvedCaptureTime? = { _ in nil },
        listed: (MediaFile) -> CaptureTime? = { _ in nil },
        captureTime: (MediaFile) -> ResolvedCaptureTime
    ) -> ImportPlan {
        var placer = GroupPlacer(options: options, now: now)
        var items: [ImportItem] = []
        var unplaced: [PendingGroup] = []
        let (pending, sequence) = prepare(groups, options: options, ledgers: ledgers, elsewhere: elsewhere)
        for var group in pending {
            group.known = known(group.main)
            group.listed = listed(group.main).map { ResolvedCaptureTime(time: $0) }
            if unplaced.isEmpty, !(group.needsDate && datedByContent?(group.main) == true) {
                items += placer.place(group, time: group.needsDate ? captureTime(group.main) : nil)
            } else {
                unplaced.append(group)
            }
        }
        return ImportPlan(
            items: items, root: options.pattern.fixedRoot, lastSequence: sequence, unplaced: unplaced, placer: placer)
    }

    /// Each group's members (its sidecars and proxies as the options say), what the ledger knows of each,
    /// and its number: a group imported before keeps its number, a new one takes the next. Also the last
    /// number given.
    static func prepare(
        _ groups: [MediaGroup], options: ImportOptions, ledgers: CameraLedgers?, elsewhere: [String: ElsewhereMatch] = [:]
    ) -> ([PendingGroup], Int) {
        var sequence = ledgers?.sequence ?? 0
        var result: [PendingGroup] = []
        for group in groups {
            let files = [group.main] + group.followers.filter { f in
                switch MediaGroup.role(of: f, in: group) {
                case .proxy: options.proxies
                case .sidecar: options.sidecars
                case .media: true
                }
            }
            let members = files.map { file in
                let own = ledgers?.entry(for: file)
                let other = own == nil && !options.again ? elsewhere[file.path] : nil
                let entry = own ?? other?.entry
                return PendingGroup.Member(
                    file: file, role: MediaGroup.role(of: file, in: group), entry: entry,
                    isNew: entry == nil || options.again, importedFrom: other?.card)
            }
            var groupSequence = members.compactMap { $0.entry?.sequence }.first
            if members.contains(where: \.isNew), groupSequence == nil || options.again {
                sequence += 1
                groupSequence = sequence
            }
            result.append(PendingGroup(main: group.main, members: members, sequence: groupSequence ?? 0))
        }
        return (result, sequence)
    }
}
