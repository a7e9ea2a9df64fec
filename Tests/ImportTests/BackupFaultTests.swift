import Checksums
import Connectors
import Foundation
import MediaManager
import POSIX
import Testing
@testable import Import

/// The faults of an import to two destinations, each a clear outcome with nothing lost: a backup that fills
/// up in the middle stops and the first copy goes on, its missing files named and kept on the camera, and
/// the next import (room made) copies them there from the proven first copies, not from the camera; a
/// backup drive pulled in the middle is never written to again (its mount point not refilled); Ctrl-C,
/// then import again, finishes both destinations with no byte read from the camera twice.
@Suite struct BackupFaultTests: BackupSuite {
    let card: CardOnDisk

    init() throws {
        card = try Self.cardWithBackup()
    }

    /// Every file under `root` but the manifests, relative, and its bytes.
    func contents(_ root: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in card.files(under: root) where !path.hasSuffix(".xxh128") && !path.hasSuffix(".part") {
            result[path] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
        }
        return result
    }

    var cardFiles: Int { card.files(under: card.card + "/DCIM").count }

    @Test func aBackupThatFillsUpStopsTheFirstCopyGoesOnAndTheNextImportCompletesItLocally() throws {
        // The backup's disk fills after 350 kB (the video and its sidecars fit, not all the photos after
        // them): ENOSPC from then on, as a full disk answers.
        let written = Locked<UInt64>(0)
        let fullAfter: UInt64 = 350_000
        let run = options {
            $0.deleteAfter = true
            $0.backupWriter = BackupWriter { descriptor, bytes, offset, partPath throws(SystemError) in
                let full = written.withLock { total in
                    total += UInt64(bytes.count)
                    return total > fullAfter
                }
                if full { throw SystemError(.write, path: partPath, errno: ENOSPC) }
                try BackupWriter.disk.write(descriptor, bytes, offset, partPath)
            }
        }
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let before = cardFiles
        let first = try runImport(card, session: session, run: run)
        #expect(first.summary.failed == 0 && first.failedNames.isEmpty, "the first copy is whole")
        #expect(first.summary.stoppedDestinations.count == 1)
        #expect(first.summary.stoppedDestinations.first?.root == backup)
        #expect(first.summary.stoppedDestinations.first?.why.errno == ENOSPC, "\(first.summary.stoppedDestinations)")
        let primary = try contents(card.pictures)
        var second = try contents(backup)
        #expect(primary.count == first.summary.fetched)
        #expect(!second.isEmpty && second.count < primary.count, "some files reached the backup before it filled")
        for (path, bytes) in second { #expect(primary[path] == bytes, "\(path) in the backup is not whole") }
        // The summary names exactly the files in one copy only; the ledger says where they are missing;
        // only the files in both were deleted from the camera.
        let inOneCopy = Set(primary.keys).subtracting(second.keys).map { ($0 as NSString).lastPathComponent }
        #expect(Set(first.summary.missingCopies) == Set(inOneCopy))
        for entry in try ledgerEntries(session) {
            #expect(entry.missing == (inOneCopy.contains(entry.name) ? [backup] : nil), "\(entry.name)")
        }
        #expect(first.summary.deleted == second.count && cardFiles == before - second.count)

        // Room made: the next import copies the missing files from the first copies (no byte from the camera),
        // proves them, records them and deletes them from the camera.
        let again = try runImport(card, session: session, run: options { $0.deleteAfter = true })
        #expect(again.summary.bytes == 0 && again.summary.fetched == 0, "nothing read from the camera")
        #expect(again.summary.completedCopies == inOneCopy.count && again.summary.missingCopies.isEmpty)
        second = try contents(backup)
        #expect(second == primary, "the backup is complete and identical")
        #expect(try ledgerEntries(session).allSatisfy { $0.missing == nil && $0.copies?.count == 2 })
        #expect(cardFiles == before - primary.count, "every file deleted once in both")
        // The completed copies are in that import's manifest in the backup.
        let manifest = try #require(again.summary.manifests.first { $0.hasPrefix(backup + "/") })
        #expect(try String(contentsOfFile: manifest, encoding: .utf8).split(separator: "\n").count == inOneCopy.count)
    }

    @Test func aBackupDrivePulledInTheMiddleIsNotWrittenAgain() throws {
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let ledgers = try Importer.ledgers(for: session, folder: card.ledgers)
        let plan = Importer.plan(
            CardSelection.groups(for: CardSelection.dcimFiles(in: session.catalog), in: session.catalog), session: session,
            options: ImportOptions(pattern: try DestinationPattern(card.pictures + "/%Y/%m-%d")), ledgers: ledgers)
        var importRun = ImportRun(session: session, plan: plan, ledgers: ledgers, options: options())
        importRun.options.chunkSize = 16 << 10
        let backup = self.backup
        var pulled = false
        let summary = try importRun.run(progress: { p in
            // The drive goes once the first 100 kB arrived: its folder is gone.
            if !pulled, p.bytesDone >= 100_000 {
                pulled = true
                try? FileManager.default.removeItem(atPath: backup)
            }
        })
        #expect(pulled)
        #expect(summary.failed == 0 && summary.fetched == plan.toFetch.count + plan.unplacedFiles.count)
        #expect(summary.stoppedDestinations.count == 1 && summary.stoppedDestinations[0].root == backup)
        #expect(summary.stoppedDestinations.first?.why.errno == ENOENT, "pulled: \(summary.stoppedDestinations)")
        #expect(!FileManager.default.fileExists(atPath: backup), "its mount point is not filled with the rest")
        #expect(summary.missingCopies.count == summary.fetched)
    }

    @Test func ctrlCThenImportAgainFinishesBothWithNoByteReadTwice() throws {
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let first = try runImport(card, session: session, run: options(), cancelAfterBytes: 100_000)
        #expect(first.summary.interrupted)
        let parts = card.files(under: card.pictures).filter { $0.hasSuffix(".part") }
        #expect(parts.count == 1, "\(card.files(under: card.pictures))")
        let kept = try #require(parts.first.flatMap { LocalDisk.size(card.pictures + "/" + $0) })
        #expect(kept > 0)
        #expect(card.files(under: backup).contains(parts[0]), "the backup keeps its .part too")

        let second = try runImport(card, session: session, run: options())
        #expect(!second.summary.interrupted && second.summary.failed == 0 && second.summary.missingCopies.isEmpty)
        let primary = try contents(card.pictures)
        #expect(try contents(backup) == primary)
        let total = primary.values.reduce(UInt64(0)) { $0 + UInt64($1.count) }
        // The first run's count holds what it kept in the .part, which the second continues.
        #expect(first.summary.bytesKept == kept)
        #expect(first.summary.bytes + second.summary.bytes == total, "a byte read from the camera twice")
        #expect(card.files(under: card.pictures).allSatisfy { !$0.hasSuffix(".part") })
        #expect(card.files(under: backup).allSatisfy { !$0.hasSuffix(".part") })
    }
}
