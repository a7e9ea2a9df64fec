import Foundation
import MediaManager
import POSIX

/// What the imports of other cameras and cards brought home, known by content: each ledger entry with a
/// checksum, found by its size and capture time (to the second). A card reused, or copied to a second
/// card, brings files that one of these may already hold under another name: `ImportedElsewhere` proves
/// which before the plan skips them.
public struct ImportedContent: Sendable {
    /// A file another ledger recorded: the card (its ledger's camera key) and the entry.
    public struct Known: Sendable {
        public var card: String
        public var entry: LedgerEntry
    }

    struct Key: Hashable {
        var size: UInt64
        var captured: Int64?
    }

    private var byKey: [Key: [Known]] = [:]
    /// The ledger files that could not be read (passed over: another camera's broken ledger does not stop
    /// this import, it only cannot help it).
    public private(set) var unreadable: [String] = []

    /// Every ledger in `folder` but those at `excluding` (the open camera's own).
    public init(folder: String, excluding: Set<String>) {
        for name in (LocalDisk.names(in: folder) ?? []).sorted() where name.hasSuffix(".json") {
            let path = folder + "/" + name
            guard !excluding.contains(path) else { continue }
            guard let ledger = try? ImportLedger.open(path: path) else {
                unreadable.append(path)
                continue
            }
            add(ledger.entries, card: ledger.cameraKey)
        }
    }

    /// Content from entries given (tests, callers holding ledgers already).
    public init(_ entries: [(card: String, entry: LedgerEntry)] = []) {
        for (card, entry) in entries { add([entry], card: card) }
    }

    private mutating func add(_ entries: [LedgerEntry], card: String) {
        for entry in entries where entry.checksum != nil && entry.size > 0 {
            byKey[Key(size: entry.size, captured: entry.captured), default: []].append(Known(card: card, entry: entry))
        }
    }

    public var isEmpty: Bool { byKey.isEmpty }

    /// The entries that may be `file`: of its size and capture time (both without a time when the camera
    /// gave it none).
    public func candidates(for file: MediaFile) -> [Known] {
        let captured = file.captureDate.map { Int64($0.timeIntervalSince1970.rounded(.down)) }
        return byKey[Key(size: file.size, captured: captured)] ?? []
    }
}
