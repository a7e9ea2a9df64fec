import Foundation
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
    /// The capture time: the pattern's date and the file's modification time.
    public var captureTime: Date?
    public var sequence: Int

    /// Bytes still to download.
    public var bytesToFetch: UInt64 {
        if case .fetch(let part, _) = action { return file.size - min(part, file.size) }
        return 0
    }
}

/// What an import will do, worked out before any byte moves: the dry run prints it, the free-space check
/// sums it, the run executes it.
public struct ImportPlan: Sendable {
    public var items: [ImportItem]
    /// The folder the pattern writes under.
    public var root: String
    /// The highest `%n` used.
    public var lastSequence: Int

    public var toFetch: [ImportItem] { items.filter { if case .fetch = $0.action { true } else { false } } }
    public var alreadyImported: [ImportItem] { items.filter { if case .imported = $0.action { true } else { false } } }
    public var alreadyThere: [ImportItem] { items.filter { $0.action == .alreadyThere } }
    public var bytesToFetch: UInt64 { items.reduce(0) { $0 + $1.bytesToFetch } }
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

    public init(pattern: DestinationPattern) { self.pattern = pattern }
}

/// Builds an import plan from the files chosen on the card.
public enum ImportPlanner {
    /// `groups` are the chosen media with their sidecars; `ledgers` say which are imported (nil: none);
    /// `captureTime` gives each group's capture time (EXIF or the device's date).
    public static func plan(
        _ groups: [MediaGroup], options: ImportOptions, ledgers: CameraLedgers?, now: Date = Date(),
        captureTime: (MediaFile) -> Date?
    ) -> ImportPlan {
        var clashes = ClashResolver(overwrite: options.force)
        var items: [ImportItem] = []
        var sequence = ledgers?.sequence ?? 0
        for group in groups {
            let members = [group.main] + group.followers.filter { f in
                switch MediaGroup.role(of: f, in: group) {
                case .proxy: options.proxies
                case .sidecar: options.sidecars
                case .media: true
                }
            }
            let entries = members.map { ledgers?.entry(for: $0) }
            let isNew = entries.map { $0 == nil || options.again }
            // A group imported before keeps its number; a new one takes the next.
            var groupSequence = entries.compactMap { $0?.sequence }.first
            var date: Date?
            if isNew.contains(true) {
                date = captureTime(group.main) ?? group.main.captureDate
                if groupSequence == nil || options.again {
                    sequence += 1
                    groupSequence = sequence
                }
            }
            for (index, file) in members.enumerated() {
                let role = MediaGroup.role(of: file, in: group)
                if !isNew[index], let entry = entries[index] {
                    items.append(ImportItem(
                        file: file, role: role, action: .imported(entry), destination: entry.path, renamed: false,
                        captureTime: file.captureDate, sequence: entry.sequence ?? 0))
                    continue
                }
                let values = PatternValues(
                    fileName: LocalFileName.sanitize(file.name), cardFolder: file.folder, cameraModel: options.cameraModel,
                    date: date ?? now, sequence: groupSequence ?? 0)
                let desired = options.pattern.path(for: values)
                let (placement, renamed) = clashes.place(
                    desired, size: file.size, captured: date, knownHash: entries[index]?.sha256)
                let action: ImportItem.Action
                switch placement {
                case .write(_, let part): action = .fetch(partBytes: part, overwrite: false)
                case .overwrite: action = .fetch(partBytes: 0, overwrite: true)
                case .alreadyThere: action = .alreadyThere
                }
                items.append(ImportItem(
                    file: file, role: role, action: action, destination: placement.path, renamed: renamed,
                    captureTime: date, sequence: groupSequence ?? 0))
            }
        }
        return ImportPlan(items: items, root: options.pattern.fixedRoot, lastSequence: sequence)
    }
}
