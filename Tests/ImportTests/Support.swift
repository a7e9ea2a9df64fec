import Foundation
import MediaManager
import POSIX
import PTP
import TestSupport
import VirtualCamera
@testable import Import

/// A fresh folder under the system's temporary folder, removed by the caller.
func temporaryFolder(_ label: String = "import") throws -> String {
    let path = NSTemporaryDirectory() + "mediashell-\(label)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Bytes that differ from file to file.
func patternedBytes(_ count: Int, seed: UInt8) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7) }
}

/// A card folder (as a card reader shows it) with several DCIM folders, a video with its sidecars, a
/// RAW+JPEG pair and an EXIF-dated photo, each file with a known modification time (the device's date).
final class CardOnDisk {
    let root: String
    let card: String
    let pictures: String
    let ledgers: String
    static let deviceDate = Date(timeIntervalSince1970: 1_717_243_200)  // 2024-06-01 12:00:00 UTC

    init() throws {
        root = try temporaryFolder()
        card = root + "/card"
        pictures = root + "/Pictures"
        ledgers = root + "/ledgers"
        try add("DCIM/100MEDIA/DJI_0001.MP4", patternedBytes(300_000, seed: 1))
        try add("DCIM/100MEDIA/DJI_0001.SRT", patternedBytes(2_000, seed: 2))
        try add("DCIM/100MEDIA/DJI_0001.LRF", patternedBytes(20_000, seed: 3))
        try add("DCIM/100MEDIA/DJI_0002.JPG", patternedBytes(50_000, seed: 4))
        try add("DCIM/101MEDIA/IMG_0003.CR3", patternedBytes(80_000, seed: 5))
        try add("DCIM/101MEDIA/IMG_0003.JPG", patternedBytes(40_000, seed: 6))
        if let photo = DemoMedia.file("photo_landscape.jpg") {
            try add("DCIM/101MEDIA/IMG_0004.JPG", Array(try Data(contentsOf: URL(fileURLWithPath: photo))))
        }
        try add("MISC/NOTES.TXT", patternedBytes(100, seed: 7))
    }

    /// Writes a file on the card with the device date (plus `offset` seconds) as its time.
    func add(_ relative: String, _ bytes: [UInt8], offset: TimeInterval = 0) throws {
        let url = URL(fileURLWithPath: card + "/" + relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        try FileManager.default.setAttributes(
            [.modificationDate: Self.deviceDate.addingTimeInterval(offset)], ofItemAtPath: url.path)
    }

    func bytes(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: card + "/" + relative)))
    }

    /// Every regular file under `folder`, relative, sorted.
    func files(under folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var result: [String] = []
        while let next = enumerator?.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + next, isDirectory: &isDir), !isDir.boolValue {
                result.append(next)
            }
        }
        return result.sorted()
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}

/// A camera in this process serving `card` through the in-memory transport (as `sim:` does), with the
/// identity and quirks given (a camera without a serial number, or without partial reads, say); with
/// `trace`, every container recorded in it (as `--debug-ptp` does).
func openInProcess(
    _ card: Card, identity: VirtualCamera.Identity = .init(), quirks: Quirks = [], trace: PTPTrace? = nil
) throws -> MediaSession {
    let camera = VirtualCamera(card: card, identity: identity, quirks: quirks)
    let (initiator, responder) = InMemoryTransport.makePair(chunkSize: 1 << 20, timeout: 10)
    let finished = Mailbox<Void>()
    let thread = Thread {
        _ = camera.serve(responder, peer: "test")
        finished.put(())
    }
    thread.start()
    let transport: InitiatorTransport = trace.map { TracingTransport(initiator, trace: $0) } ?? initiator
    let opened = try Camera(transport: transport, location: "test:") {
        responder.close()
        _ = finished.take(timeout: 5)
    }
    return MediaSession(camera: opened, url: .simulator(path: nil))
}

/// What one import did: its plan, its summary, and the events of its files in order.
struct ImportOutcome {
    var plan: ImportPlan
    var summary: BatchSummary
    var events: [BatchEvent]

    /// The names of the files that failed, in order.
    var failedNames: [String] { events.compactMap { if case .failed(let item, _) = $0 { item.file.name } else { nil } } }
    var fetchedNames: [String] { events.compactMap { if case .fetched(let item, _, _, _) = $0 { item.file.name } else { nil } } }
}

/// Imports every DCIM file of `card` through `session` (the ledgers in `card.ledgers`, by default into
/// `card.pictures/%Y/%m-%d`), `chunkSize` bytes a request; Ctrl-C once `cancelAfterBytes` arrived. With
/// `datesFromDownload`, a JPEG's date comes from the first bytes of its download, as in a real run;
/// Ctrl-C too once `stopWhen` says so, asked at every progress report.
func runImport(
    _ card: CardOnDisk, session: MediaSession, pattern: String? = nil,
    configure: (inout ImportOptions) -> Void = { _ in }, run: ImportRun.Options = .init(), chunkSize: Int = 16 << 10,
    cancelAfterBytes: UInt64? = nil, datesFromDownload: Bool = false, stopAfter: ((Error) -> Bool)? = nil,
    stopWhen: ((BatchProgress) -> Bool)? = nil
) throws -> ImportOutcome {
    try session.catalog.ensureLoaded()
    var options = ImportOptions(pattern: try DestinationPattern(pattern ?? card.pictures + "/%Y/%m-%d"))
    configure(&options)
    let ledgers = try Importer.ledgers(for: session, folder: card.ledgers)
    let groups = CardSelection.groups(for: CardSelection.dcimFiles(in: session.catalog), in: session.catalog)
    let plan = Importer.plan(
        groups, session: session, options: options, ledgers: ledgers, datesFromDownload: datesFromDownload)
    let cancellation = Cancellation()
    var events: [BatchEvent] = []
    var importRun = ImportRun(session: session, plan: plan, ledgers: ledgers, options: run)
    importRun.options.chunkSize = chunkSize
    let summary = try importRun.run(
        cancellation: cancellation,
        progress: { p in
            if let limit = cancelAfterBytes, p.bytesDone >= limit { cancellation.cancel() }
            if stopWhen?(p) == true { cancellation.cancel() }
        },
        event: { events.append($0) }, stopAfter: stopAfter)
    return ImportOutcome(plan: plan, summary: summary, events: events)
}

/// What the suites of `--backup` share: a card on disk with a backup folder beside its pictures, the run's
/// options for two destinations with each copy read back, and the ledger's entries.
protocol BackupSuite {
    /// Made by `cardWithBackup()`.
    var card: CardOnDisk { get }
}

extension BackupSuite {
    /// A card on disk with its backup folder made beside its pictures.
    static func cardWithBackup() throws -> CardOnDisk {
        let card = try CardOnDisk()
        try FileManager.default.createDirectory(atPath: card.root + "/Backup", withIntermediateDirectories: true)
        return card
    }

    /// The backup destination (a test may remove it, as a pulled drive).
    var backup: String { card.root + "/Backup" }

    func options(_ change: (inout ImportRun.Options) -> Void = { _ in }) -> ImportRun.Options {
        var options = ImportRun.Options()
        options.backups = [BackupTarget(folder: backup)]
        options.writesManifest = true
        options.verification = .readBack
        change(&options)
        return options
    }

    func ledgerEntries(_ session: MediaSession) throws -> [LedgerEntry] {
        let key = try Importer.ledgers(for: session, folder: card.ledgers).all[0].cameraKey
        return try ImportLedger(cameraKey: key, folder: card.ledgers).entries
    }
}
