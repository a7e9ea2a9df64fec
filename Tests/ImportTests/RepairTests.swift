import Checksums
import Connectors
import Foundation
import MediaManager
import POSIX
import TestSupport
import Testing
@testable import Import

/// `verify --repair` below the shell: a copy that fails is replaced through its `.part` from another copy
/// the ledger knows, proven as it is read, the bad one moved aside (never lost); the ledger entry and a log
/// beside the manifests record it, and a re-check afterwards finds every copy as recorded. What nothing can
/// prove is not touched.
@Suite(.tags(.process), .notInFastRun) struct RepairTests: BackupSuite {
    let card: CardOnDisk

    init() throws {
        card = try Self.cardWithBackup()
    }

    /// Imports the card into both destinations; returns the copies the ledger records.
    func importBoth(_ change: (inout ImportRun.Options) -> Void = { _ in }) throws -> [CopyToCheck] {
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let outcome = try runImport(card, session: session, run: options(change))
        #expect(outcome.summary.failed == 0 && outcome.summary.missingCopies.isEmpty)
        return try CopyVerifier.fromLedgers(folder: card.ledgers)
    }

    /// Re-checks `copies`, then repairs what failed (no camera).
    func checkAndRepair(_ copies: [CopyToCheck]) throws -> (VerifyReport, RepairReport) {
        let report = CopyVerifier.check(copies) { _ in }
        var said: [RepairResult] = []
        let repairs = try CopyRepairer(ledgerFolder: card.ledgers).repair(report.problems) { said.append($0) }
        #expect(said.count == report.problems.count, "one result per problem, as it happens")
        return (report, repairs)
    }

    func copy(_ copies: [CopyToCheck], under root: String, named name: String) throws -> String {
        try #require(copies.first { $0.path.hasPrefix(root + "/") && $0.path.hasSuffix("/" + name) }).path
    }

    func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Flips bits of one byte of the file at `path` (bit rot); returns the bytes it holds now.
    func flip(_ path: String, at offset: Int, _ bits: UInt8) throws -> [UInt8] {
        var changed = try bytes(path)
        changed[offset] ^= bits
        try Data(changed).write(to: URL(fileURLWithPath: path))
        return changed
    }

    func entry(_ name: String) throws -> LedgerEntry {
        let ledgers = try CopyVerifier.ledgers(in: card.ledgers)
        return try #require(ledgers.flatMap(\.entries).first { $0.name == name })
    }

    @Test func aFlippedByteInTheFirstCopyIsRepairedFromTheBackupCopy() throws {
        let copies = try importBoth()
        let first = try copy(copies, under: card.pictures, named: "DJI_0002.JPG")
        let second = try copy(copies, under: backup, named: "DJI_0002.JPG")
        let flipped = try flip(first, at: 4_321, 0x01)

        let (report, repairs) = try checkAndRepair(copies)
        #expect(report.problems.count == 1)
        #expect(repairs.notRepaired.isEmpty && !repairs.interrupted)
        let repair = try #require(repairs.repaired.first)
        #expect(repairs.repaired.count == 1)
        #expect(repair.path == first && repair.source == .copy(second) && repair.keptAs == first + ".verify-failed")
        #expect(repair.checksum == copies.first { $0.path == first }?.expected)
        #expect(try bytes(first) == card.bytes("DCIM/100MEDIA/DJI_0002.JPG"))
        #expect(try bytes(first + ".verify-failed") == flipped, "the bad bytes are kept")
        #expect(!LocalDisk.exists(first + ".part"))
        #expect(CopyVerifier.check(copies) { Issue.record("after the repair: \($0)") }.problems.isEmpty)

        // The ledger entry says so (and still loads: its other fields as they were).
        let recorded = try entry("DJI_0002.JPG")
        #expect(recorded.repairs?.count == 1)
        #expect(recorded.repairs?.first?.path == first && recorded.repairs?.first?.from == second)
        #expect(recorded.repairs?.first?.kept == first + ".verify-failed")
        #expect(recorded.allCopies == [first, second])
        #expect(try entry("DJI_0001.MP4").repairs == nil)
        // The log beside the first copy's manifest; the manifest itself untouched and still right.
        let log = try String(contentsOfFile: card.pictures + "/" + RepairLog.fileName, encoding: .utf8)
        let fields = try #require(log.split(separator: "\n").first).split(separator: "\t").map(String.init)
        #expect(log.split(separator: "\n").count == 1 && fields.count == 5, "\(log)")
        #expect(Array(fields.dropFirst()) == [
            String(first.dropFirst(card.pictures.count + 1)), second, repair.checksum.description,
            String(first.dropFirst(card.pictures.count + 1)) + ".verify-failed",
        ])
        #expect(!LocalDisk.exists(backup + "/" + RepairLog.fileName), "nothing was repaired there")
        if ExternalTool.find("xxhsum") != nil {
            for manifest in try FileManager.default.contentsOfDirectory(atPath: card.pictures) where manifest.hasSuffix(".xxh128") {
                let checked = try ManifestTests.check(manifest, in: card.pictures, strict: true)
                #expect(checked.status == 0, "\(checked.output)")
            }
        }
    }

    @Test func aDeletedBackupCopyIsMadeAgainFromTheFirstCopy() throws {
        let copies = try importBoth()
        let first = try copy(copies, under: card.pictures, named: "DJI_0001.MP4")
        let gone = try copy(copies, under: backup, named: "DJI_0001.MP4")
        try FileManager.default.removeItem(atPath: gone)

        let (report, repairs) = try checkAndRepair(copies)
        #expect(report.problems.map(\.copy.path) == [gone])
        #expect(repairs.repaired.map(\.path) == [gone] && repairs.repaired.first?.source == .copy(first))
        #expect(repairs.repaired.first?.keptAs == nil, "nothing was there to keep")
        #expect(try bytes(gone) == card.bytes("DCIM/100MEDIA/DJI_0001.MP4"))
        #expect(LocalDisk.modificationTime(gone) == LocalDisk.modificationTime(first), "the capture time, as the first copy has it")
        #expect(CopyVerifier.check(copies) { Issue.record("after the repair: \($0)") }.problems.isEmpty)
        #expect(try entry("DJI_0001.MP4").repairs?.map(\.path) == [gone])
    }

    @Test func aCopyWhoseOtherCopyFailsTooIsNotRepairedWithoutTheCamera() throws {
        let copies = try importBoth()
        let first = try copy(copies, under: card.pictures, named: "IMG_0003.JPG")
        let second = try copy(copies, under: backup, named: "IMG_0003.JPG")
        try FileManager.default.removeItem(atPath: first)
        let other = try flip(second, at: 10, 0xFF)

        let (report, repairs) = try checkAndRepair(copies)
        #expect(report.problems.count == 2 && repairs.repaired.isEmpty && repairs.notRepaired.count == 2)
        guard case .noProvenSource(let tried, let camera)? = repairs.notRepaired.first(where: { $0.problem.copy.path == first })?.why else {
            Issue.record("\(repairs.notRepaired)")
            return
        }
        #expect(tried.map(\.copy.path) == [second])
        #expect({ if case .notOpen = camera { true } else { false } }(), "\(camera)")
        #expect(!LocalDisk.exists(first) && !LocalDisk.exists(first + ".part"), "nothing written from an unproven copy")
        #expect(try bytes(second) == other && !LocalDisk.exists(second + ".verify-failed"))
        #expect(try entry("IMG_0003.JPG").repairs == nil)
    }

    @Test func aCopyWithoutAChecksumIsNotRepaired() throws {
        let copies = try importBoth { $0.verification = .none }
        let gone = try copy(copies, under: card.pictures, named: "DJI_0002.JPG")
        try FileManager.default.removeItem(atPath: gone)

        let (report, repairs) = try checkAndRepair(copies)
        #expect(report.problems.map(\.copy.path) == [gone] && repairs.repaired.isEmpty)
        guard case .noChecksum? = repairs.notRepaired.first?.why else {
            Issue.record("\(repairs.notRepaired)")
            return
        }
        #expect(!LocalDisk.exists(gone))
    }

    @Test func ctrlCStopsBetweenTwoCopies() throws {
        let copies = try importBoth()
        let gone = try ["DJI_0002.JPG", "IMG_0003.CR3"].map { try copy(copies, under: backup, named: $0) }
        for path in gone { try FileManager.default.removeItem(atPath: path) }
        let report = CopyVerifier.check(copies) { _ in }
        #expect(report.problems.map(\.copy.path).sorted() == gone.sorted())

        let cancellation = Cancellation()
        var said = 0
        let repairs = try CopyRepairer(ledgerFolder: card.ledgers, cancellation: cancellation).repair(report.problems) { _ in
            said += 1
            cancellation.cancel()
        }
        #expect(said == 1 && repairs.repaired.count == 1 && repairs.notRepaired.isEmpty && repairs.interrupted)
        let left = try #require(report.problems.last?.copy.path)
        #expect(!LocalDisk.exists(left) && !LocalDisk.exists(left + ".part"), "the second copy is not begun")
    }

    @Test func aLedgerWrittenBeforeRepairsLoadsAndTakesOne() throws {
        let key = "Maker Model 1234"
        let path = card.ledgers + "/" + LedgerLocation.fileName(for: key)
        try FileManager.default.createDirectory(atPath: card.ledgers, withIntermediateDirectories: true)
        let old = """
            {"camera":"\(key)","entries":[{"folder":"DCIM/100MEDIA","imported":1717243300,"name":"A.JPG",\
            "path":"/p/A.JPG","size":10,"xxh128":"00112233445566778899aabbccddeeff"}],\
            "format":"mediashell-import-ledger","sequence":1,"version":1}
            """
        try Data(old.utf8).write(to: URL(fileURLWithPath: path))
        let ledger = try ImportLedger.open(path: path)
        #expect(ledger.entries.first?.repairs == nil)
        let repair = LedgerRepair(path: "/p/A.JPG", from: "/q/A.JPG", at: Date(timeIntervalSince1970: 1_800_000_000), kept: nil)
        try ledger.recordRepair(repair, of: try #require(ledger.entries.first).identity)
        #expect(try ImportLedger.open(path: path).entries.first?.repairs == [repair])
    }
}
