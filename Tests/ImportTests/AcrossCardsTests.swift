import Checksums
import Foundation
import MediaManager
import POSIX
import PTP
import Testing
import VirtualCamera
@testable import Import

/// One import across many cards (issue 46): card A imported, then card B holding many of A's files under
/// other names. B's copies of them are skipped without being downloaded, each proven by one small read
/// (its size, capture time and first bytes, and A's copy still giving its recorded checksum); the rest
/// of B comes home; B's ledger records them all.
@Suite struct AcrossCardsTests {
    let root: String
    let cardA: String
    let cardB: String
    let pictures: String
    let ledgers: String
    static let shot = Date(timeIntervalSince1970: 1_717_243_200)

    init() throws {
        root = try temporaryFolder("across")
        cardA = root + "/A"
        cardB = root + "/B"
        pictures = root + "/Pictures"
        ledgers = root + "/ledgers"
    }

    /// A file's bytes: a pool of random bytes taken from an offset of its own, its number in front, so
    /// that no two files share their first bytes.
    /// Random bytes that `bytes(_:size:pool:)` cuts photos of up to 100,000 bytes from.
    static func randomPool() -> [UInt8] {
        var random = SystemRandomNumberGenerator()
        return (0..<(4096 + 100_000)).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    static func bytes(_ number: Int, size: Int, pool: [UInt8]) -> [UInt8] {
        var bytes = Array(pool[(number * 977) % 4096..<((number * 977) % 4096 + size)])
        withUnsafeBytes(of: UInt32(number).littleEndian) { bytes.replaceSubrange(0..<4, with: $0) }
        return bytes
    }

    func write(_ card: String, _ name: String, _ bytes: [UInt8], minute: Int) throws {
        let path = card + "/DCIM/100CARD/" + name
        try FileManager.default.createDirectory(atPath: card + "/DCIM/100CARD", withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try LocalDisk.setModificationTime(path, to: Self.shot.timeIntervalSince1970 + Double(minute * 60))
    }

    /// Opens `card` in this process as a camera of serial `serial`, recording its containers in `trace`.
    func open(_ card: String, serial: String, trace: PTPTrace? = nil) throws -> MediaSession {
        var identity = VirtualCamera.Identity()
        identity.serialNumber = serial
        let session = try openInProcess(try Card(folder: card), identity: identity, trace: trace)
        try session.catalog.ensureLoaded()
        return session
    }

    /// Imports every DCIM file of `session` into `pictures`, as `import` does (other cards' files found
    /// first); the plan and the events.
    func importAll(
        _ session: MediaSession, into root: String? = nil, backup: String? = nil, deleteAfter: Bool = false
    ) throws -> (ImportPlan, [BatchEvent], BatchSummary) {
        let ledgers = try Importer.ledgers(for: session, folder: self.ledgers)
        let groups = CardSelection.groups(for: CardSelection.dcimFiles(in: session.catalog), in: session.catalog)
        let root = root ?? pictures
        let elsewhere = Importer.importedElsewhere(groups, session: session, ledgers: ledgers, folder: self.ledgers, root: root)
        let plan = Importer.plan(
            groups, session: session, options: ImportOptions(pattern: try DestinationPattern(root + "/%Y")),
            ledgers: ledgers, elsewhere: elsewhere, datesFromDownload: true)
        var options = ImportRun.Options()
        options.deleteAfter = deleteAfter
        if let backup { options.backups = [BackupTarget(folder: backup)] }
        var events: [BatchEvent] = []
        let summary = try ImportRun(session: session, plan: plan, ledgers: ledgers, options: options).run(event: { events.append($0) })
        return (plan, events, summary)
    }

    @Test func fiveHundredOfAnotherCardsFilesAreSkippedWithOneSmallReadEach() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let pool = Self.randomPool()
        // A: 520 photos of 70-90 kB, more than the 64 kB a proof reads.
        let sizes = (0..<520).map { 70_000 + ($0 * 37) % 20_000 }
        for n in 0..<520 { try write(cardA, String(format: "IMG_%04d.JPG", n), Self.bytes(n, size: sizes[n], pool: pool), minute: n) }
        let a = try open(cardA, serial: "CARD-A")
        let (_, _, first) = try importAll(a)
        a.close()
        #expect(first.fetched == 520 && first.failed == 0)

        // B: 500 of them renamed, with their times; 40 new; one of A's sizes and times with other bytes;
        // and one whose copy from A was changed at its end since (its size and time kept): not proven.
        for n in 0..<500 { try write(cardB, String(format: "DSC_%04d.JPG", n), Self.bytes(n, size: sizes[n], pool: pool), minute: n) }
        for n in 0..<40 { try write(cardB, String(format: "NEW_%04d.JPG", n), Self.bytes(1_000 + n, size: 50_000, pool: pool), minute: 600 + n) }
        try write(cardB, "IMP_0510.JPG", Self.bytes(9_999, size: sizes[510], pool: pool), minute: 510)
        try write(cardB, "CHG_0515.JPG", Self.bytes(515, size: sizes[515], pool: pool), minute: 515)
        let changed = pictures + "/2024/IMG_0515.JPG"
        var tampered = Array(try Data(contentsOf: URL(fileURLWithPath: changed)))
        tampered[tampered.count - 1] ^= 0xFF
        try Data(tampered).write(to: URL(fileURLWithPath: changed))

        let lines = Locked<[String]>([])
        let trace = PTPTrace(redact: false) { line in lines.withLock { $0.append(line) } }
        let b = try open(cardB, serial: "CARD-B", trace: trace)
        defer { b.close() }
        let (plan, events, summary) = try importAll(b)

        let cardAKey = LedgerLocation.cameraKey(manufacturer: "mediashell", model: "Virtual Camera", serialNumber: "CARD-A", storageLabel: "")
        #expect(plan.importedFromOtherCards.map(\.card) == [cardAKey])
        #expect(plan.importedFromOtherCards.map(\.count) == [500])
        let fetched = Set(events.compactMap { if case .fetched(let item, _, _, _) = $0 { item.file.name } else { nil } })
        #expect(fetched.count == 42 && summary.failed == 0, "\(fetched.sorted())")
        #expect(fetched.contains("IMP_0510.JPG") && fetched.contains("CHG_0515.JPG"))
        #expect(fetched.allSatisfy { !$0.hasPrefix("DSC_") })

        // The trace: each of the 500 read once at most, in one request of at most 64 kB.
        let handles = Set(b.catalog.allFiles().filter { $0.name.hasPrefix("DSC_") }.map { TraceHex.of($0.id) })
        #expect(handles.count == 500)
        var reads: [String: [UInt32]] = [:]
        for line in lines.withLock({ $0 }) {
            guard line.contains(" > "), line.contains("GetPartialObject") || line.contains("GetObject (") else { continue }
            guard let params = line.range(of: "params=[").map({ line[$0.upperBound...].prefix { $0 != "]" } }) else { continue }
            let values = params.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let handle = values.first, handles.contains(handle) else { continue }
            reads[handle, default: []].append(values.count > 2 ? UInt32(values[values.count - 1].dropFirst(2), radix: 16) ?? .max : .max)
        }
        #expect(reads.count == 500 && reads.values.allSatisfy { $0.count == 1 && $0[0] <= UInt32(ImportedElsewhere.probeBytes) })

        // B's ledger records all 542: the 500 at A's copies, which are not copied again.
        let ledger = try Importer.ledgers(for: b, folder: ledgers)
        let entries = ledger.all.flatMap(\.entries)
        #expect(entries.count == 542)
        let dsc = try #require(entries.first { $0.name == "DSC_0007.JPG" })
        #expect(dsc.path == pictures + "/2024/IMG_0007.JPG")
        #expect(!FileManager.default.fileExists(atPath: pictures + "/2024/DSC_0007.JPG"))

        // Imported again, B reads nothing of them: its own ledger knows them now.
        lines.withLock { $0 = [] }
        let (_, _, again) = try importAll(b)
        #expect(again.fetched == 0 && again.skipped == 542)
        #expect(!lines.withLock { $0 }.contains { $0.contains("GetPartialObject") })
    }

    /// `--delete-after` deletes B's copy of A's file only when B's whole file gives the checksum of A's
    /// copy: first bytes, size and time alike, a file that differs further on stays on the card.
    @Test func deleteAfterDeletesAFileFoundElsewhereOnlyWhenItsWholeBytesAreTheCopys() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let pool = Self.randomPool()
        for n in 0..<3 { try write(cardA, "IMG_000\(n).JPG", Self.bytes(n, size: 80_000, pool: pool), minute: n) }
        let a = try open(cardA, serial: "CARD-A")
        _ = try importAll(a)
        a.close()
        for n in 0..<2 { try write(cardB, "DSC_000\(n).JPG", Self.bytes(n, size: 80_000, pool: pool), minute: n) }
        var tail = Self.bytes(2, size: 80_000, pool: pool)
        tail[79_000] ^= 0xFF
        try write(cardB, "DSC_0002.JPG", tail, minute: 2)

        let b = try open(cardB, serial: "CARD-B")
        defer { b.close() }
        let (plan, events, summary) = try importAll(b, deleteAfter: true)
        #expect(plan.importedFromOtherCards.map(\.count) == [3], "the first bytes, size and time agree for all three")
        #expect(summary.deleted == 2 && summary.fetched == 0)
        let failed = events.compactMap { if case .failed(let item, let error) = $0 { (item.file.name, error) } else { nil } }
        #expect(failed.map(\.0) == ["DSC_0002.JPG"])
        if case ImportError.notTheCamerasFile(let path, _, _)? = failed.first?.1 { #expect(path == pictures + "/2024/IMG_0002.JPG") } else {
            Issue.record("not notTheCamerasFile: \(String(describing: failed.first?.1))")
        }
        #expect(FileManager.default.fileExists(atPath: cardB + "/DCIM/100CARD/DSC_0002.JPG"), "kept on the card")
        #expect(!FileManager.default.fileExists(atPath: cardB + "/DCIM/100CARD/DSC_0000.JPG"))
    }

    /// Two of A's photos share their first 64 kB, size and time and differ further on: the one read cannot
    /// tell which of them B's copy is, so B's is fetched, not taken for either; B's copy of a third photo,
    /// unlike any other, is still found.
    @Test func filesTheFirstBytesCannotTellApartAreFetched() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let pool = Self.randomPool()
        let twin = Self.bytes(1, size: 80_000, pool: pool)
        var other = twin
        other[79_000] ^= 0xFF
        try write(cardA, "IMG_0001.JPG", twin, minute: 1)
        try write(cardA, "IMG_0002.JPG", other, minute: 1)
        try write(cardA, "IMG_0003.JPG", Self.bytes(3, size: 80_000, pool: pool), minute: 3)
        let a = try open(cardA, serial: "CARD-A")
        _ = try importAll(a)
        a.close()
        try write(cardB, "DSC_0001.JPG", twin, minute: 1)
        try write(cardB, "DSC_0003.JPG", Self.bytes(3, size: 80_000, pool: pool), minute: 3)

        let b = try open(cardB, serial: "CARD-B")
        defer { b.close() }
        let (plan, events, summary) = try importAll(b)
        #expect(plan.importedFromOtherCards.map(\.count) == [1])
        let fetched = events.compactMap { if case .fetched(let item, _, _, _) = $0 { item.file.name } else { nil } }
        #expect(fetched == ["DSC_0001.JPG"] && summary.failed == 0)
    }

    /// The copy another card's import made counts only where this import was asked to put the file: into
    /// another folder the file is fetched; with a backup, the backup gets its copy from the proven one (no
    /// camera read), and `--delete-after` deletes the camera's file once it is in both.
    @Test func aCopyCountsOnlyInThisImportsDestinationAndBackupsGetTheirsFromIt() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let pool = Self.randomPool()
        for n in 0..<2 { try write(cardA, "IMG_000\(n).JPG", Self.bytes(n, size: 80_000, pool: pool), minute: n) }
        let a = try open(cardA, serial: "CARD-A")
        _ = try importAll(a)
        a.close()
        for n in 0..<2 { try write(cardB, "DSC_000\(n).JPG", Self.bytes(n, size: 80_000, pool: pool), minute: n) }
        let b = try open(cardB, serial: "CARD-B")
        defer { b.close() }

        let (elsewherePlan, _, elsewhereSummary) = try importAll(b, into: root + "/Elsewhere")
        #expect(elsewherePlan.importedFromOtherCards.isEmpty && elsewhereSummary.fetched == 2)

        let backup = root + "/Backup"
        try FileManager.default.createDirectory(atPath: backup, withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: ledgers + "/" + LedgerLocation.fileName(
            for: LedgerLocation.cameraKey(manufacturer: "mediashell", model: "Virtual Camera", serialNumber: "CARD-B", storageLabel: "")))
        let (plan, events, summary) = try importAll(b, backup: backup, deleteAfter: true)
        #expect(plan.importedFromOtherCards.map(\.count) == [2])
        #expect(summary.fetched == 0 && summary.completedCopies == 2 && summary.deleted == 2 && summary.failed == 0, "\(events)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: backup + "/2024/IMG_0001.JPG")) == Data(Self.bytes(1, size: 80_000, pool: pool)))
        #expect(!FileManager.default.fileExists(atPath: cardB + "/DCIM/100CARD/DSC_0001.JPG"))
        let entry = try #require(try Importer.ledgers(for: b, folder: ledgers).all.flatMap(\.entries).first { $0.name == "DSC_0001.JPG" })
        #expect(entry.allCopies == [pictures + "/2024/IMG_0001.JPG", backup + "/2024/IMG_0001.JPG"] && entry.missing == nil)
    }

    /// Another camera's ledger that cannot be read is passed over: it cannot help, it does not stop.
    @Test func anUnreadableLedgerOfAnotherCardIsPassedOver() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: ledgers, withIntermediateDirectories: true)
        try Data("{ not a ledger".utf8).write(to: URL(fileURLWithPath: ledgers + "/broken.json"))
        let content = ImportedContent(folder: ledgers, excluding: [])
        #expect(content.isEmpty && content.unreadable == [ledgers + "/broken.json"])
    }
}

/// How the trace writes a number (`TraceDataPhase.hex`).
enum TraceHex {
    static func of(_ value: UInt32) -> String { "0x" + String(value, radix: 16, uppercase: true) }
}
