import Checksums
import Connectors
import Foundation
import MediaManager
import POSIX
import TestSupport
import Testing
@testable import Import

/// `import --backup DIR`: every file read from the camera once and written to both destinations in the
/// same pass, each copy through its `.part`, synced, renamed, read back; a manifest in each; the ledger
/// records each file's proven copies, and a file is deleted from the camera only when every destination
/// holds it proven. A destination missing at the start, or that fails for one file, costs that destination
/// only.
@Suite(.tags(.process), .notInFastRun) struct BackupTests: BackupSuite {
    let card: CardOnDisk

    init() throws {
        card = try Self.cardWithBackup()
    }

    @Test func everyFileReachesBothDestinationsFromOneReadOfTheCamera() throws {
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let outcome = try runImport(card, session: session, run: options())
        #expect(outcome.summary.failed == 0 && outcome.summary.missingCopies.isEmpty)
        let first = card.files(under: card.pictures).filter { !$0.hasSuffix(".xxh128") }
        let second = card.files(under: backup).filter { !$0.hasSuffix(".xxh128") }
        #expect(first.count == outcome.summary.fetched && first == second, "the same layout under both")
        for path in first {
            let a = try Data(contentsOf: URL(fileURLWithPath: card.pictures + "/" + path))
            let b = try Data(contentsOf: URL(fileURLWithPath: backup + "/" + path))
            #expect(a == b, "\(path)")
            let mtime = { (p: String) in try FileManager.default.attributesOfItem(atPath: p)[.modificationDate] as? Date }
            #expect(try mtime(card.pictures + "/" + path) == mtime(backup + "/" + path), "the capture time on both")
        }
        // The camera gave each byte once: the bytes moved are the files' sizes, not twice that.
        let sizes = try first.reduce(UInt64(0)) { $0 + UInt64(try Data(contentsOf: URL(fileURLWithPath: card.pictures + "/" + $1)).count) }
        #expect(outcome.summary.bytes == sizes)
        // A manifest in each destination, each checked by the standard tool from its own folder.
        #expect(outcome.summary.manifests.count == 2)
        for manifest in outcome.summary.manifests {
            let folder = (manifest as NSString).deletingLastPathComponent
            #expect(folder == card.pictures || folder == backup)
            if ExternalTool.find("xxhsum") != nil {
                let checked = try ManifestTests.check((manifest as NSString).lastPathComponent, in: folder)
                #expect(checked.status == 0, "\(checked.output)")
            }
        }
        // The ledger knows both copies of each file.
        for entry in try ledgerEntries(session) {
            #expect(entry.copies?.count == 2 && entry.missing == nil, "\(entry)")
            #expect(entry.copies?.last?.hasPrefix(backup + "/") == true)
        }
    }

    @Test func aBackupCopyThatReadsBackWrongKeepsItsFileOnTheCamera() throws {
        let victim = "DJI_0002.JPG"
        let backupRoot = backup
        let run = options {
            $0.deleteAfter = true
            $0.beforeReadBack = { path in
                guard path.hasPrefix(backupRoot + "/"), path.hasSuffix("/" + victim) else { return }
                ReadBackTests.corruptingVictim(path)
            }
        }
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let outcome = try runImport(card, session: session, run: run)
        let copyFailures = outcome.events.compactMap { event -> (String, String)? in
            if case .copyFailed(let item, let destination, _) = event { (item.file.name, destination) } else { nil }
        }
        #expect(copyFailures.count == 1 && copyFailures.first?.0 == victim && copyFailures.first?.1 == backupRoot)
        #expect(outcome.summary.missingCopies == [victim])
        #expect(outcome.failedNames.isEmpty, "its first copy stands")
        let entry = try #require(try ledgerEntries(session).first { $0.name == victim })
        #expect(entry.missing == [backupRoot] && entry.copies?.count == 1)
        #expect(card.files(under: backupRoot).contains { $0.hasSuffix(victim + ".verify-failed") })
        #expect(FileManager.default.fileExists(atPath: card.card + "/DCIM/100MEDIA/" + victim), "deleted with one copy")
        #expect(card.files(under: card.card + "/DCIM") == ["100MEDIA/" + victim], "the others, in both, are deleted")
    }

    @Test func aBackupMissingAtTheStartIsRefusedOrWithForceNotedAsMissing() throws {
        let gone = card.root + "/NotMounted"
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let ledgers = try Importer.ledgers(for: session, folder: card.ledgers)
        let plan = Importer.plan(
            CardSelection.groups(for: CardSelection.dcimFiles(in: session.catalog), in: session.catalog), session: session,
            options: ImportOptions(pattern: try DestinationPattern(card.pictures + "/%Y/%m-%d")), ledgers: ledgers)
        #expect(throws: ImportError.backupMissing(root: gone)) { try ImportRun.checkBackups(plan, roots: [gone]) }
        #expect(!FileManager.default.fileExists(atPath: gone))

        // --force: the import goes on with the first copy; every file is noted as missing there, and stays.
        let outcome = try runImport(card, session: session, run: options {
            $0.backups = [BackupTarget(folder: gone)]
            $0.deleteAfter = true
        })
        #expect(outcome.summary.stoppedDestinations.count == 1 && outcome.summary.stoppedDestinations[0].root == gone)
        #expect(outcome.summary.stoppedDestinations.first?.why.errno == ENOENT)
        #expect(outcome.summary.missingCopies.count == outcome.summary.fetched && outcome.summary.deleted == 0)
        #expect(!FileManager.default.fileExists(atPath: gone), "nothing is written where the drive should be")
        #expect(try ledgerEntries(session).allSatisfy { $0.missing == [gone] })
    }
}
