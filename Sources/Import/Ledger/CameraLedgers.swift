import Foundation
import MediaManager

/// The ledgers of one open camera: one for the camera when it has a serial number, else one per store
/// (its model and the store's label), so that two cards of a camera without a serial number are told
/// apart. The planner and the run see them as one.
public final class CameraLedgers: Sendable {
    private let byStorage: [UInt32: ImportLedger]
    private let fallback: ImportLedger

    /// Opens the ledgers in `folder` for a camera described by `summary` with `storages`.
    public init(folder: String, summary: CameraSummary, storages: [StorageSummary]) throws {
        var map: [UInt32: ImportLedger] = [:]
        var first: ImportLedger?
        var byKey: [String: ImportLedger] = [:]
        let stores = storages.isEmpty ? [(id: UInt32(0), label: "")] : storages.map { (id: $0.id, label: $0.label.isEmpty ? $0.description : $0.label) }
        for s in stores {
            let label = s.label
            let key = LedgerLocation.cameraKey(
                manufacturer: summary.manufacturer, model: summary.model, serialNumber: summary.serialNumber,
                storageLabel: label.isEmpty ? String(s.id, radix: 16) : label)
            let ledger = try byKey[key] ?? ImportLedger(cameraKey: key, folder: folder)
            byKey[key] = ledger
            map[s.id] = ledger
            if first == nil { first = ledger }
        }
        byStorage = map
        fallback = first!
    }

    /// Ledgers for tests and callers that already have one.
    public init(_ ledger: ImportLedger) {
        byStorage = [:]
        fallback = ledger
    }

    /// The distinct ledgers, for messages ("imported from … recorded in FILE").
    public var all: [ImportLedger] {
        var seen = Set<String>()
        return ([fallback] + byStorage.values.sorted { $0.path < $1.path }).filter { seen.insert($0.path).inserted }
    }

    public func ledger(for file: MediaFile) -> ImportLedger { byStorage[file.storageID] ?? fallback }

    public func entry(for file: MediaFile) -> LedgerEntry? {
        ledger(for: file).entry(for: ObjectIdentity(name: file.name, size: file.size, captured: file.captureDate))
    }

    /// The camera's time shift (`set time-shift`), in seconds; nil when none was set.
    public var shift: Double? { all.lazy.compactMap(\.shift).first }

    /// Sets (nil or 0: clears) the camera's time shift, in each of its ledgers.
    public func saveShift(_ seconds: Double?) throws { for ledger in all { try ledger.saveShift(seconds) } }

    /// The highest sequence number any of them handed out.
    public var sequence: Int { all.map(\.sequence).max() ?? 0 }

    /// Takes every ledger's run lock.
    public func beginRun() throws -> [LedgerRun] { try all.map { try $0.beginRun() } }

    /// Records entries, each in its file's ledger.
    public func record(_ entries: [(MediaFile, LedgerEntry)], sequence: Int) throws {
        var grouped: [String: (ImportLedger, [LedgerEntry])] = [:]
        for (file, entry) in entries {
            let l = ledger(for: file)
            grouped[l.path, default: (l, [])].1.append(entry)
        }
        for (_, (ledger, list)) in grouped.sorted(by: { $0.key < $1.key }) { try ledger.record(list, sequence: sequence) }
    }
}
