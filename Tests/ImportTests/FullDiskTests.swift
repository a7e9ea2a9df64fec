import Checksums
import Connectors
import Foundation
import MediaManager
import POSIX
import Testing
import TestSupport
@testable import Import

@Suite(.enabled(if: TinyDisk.available, "a full backup disk is a tmpfs of 400 kB, which only root may mount"))
struct FullDiskTests: BackupSuite {
    let card: CardOnDisk

    init() throws {
        card = try Self.cardWithBackup()
    }

    /// The backup disk holds 400 kB: the video and its sidecars fit, the photos after them do not, nor does
    /// the manifest. The backup stops, saying why; the first copy is whole; every file of the group is
    /// recorded as missing in the backup (none is in a manifest there) and stays on the camera. Room made,
    /// the next import completes the backup from the first copies: the copies already there are taken as
    /// they are (no `NAME (2)` beside them), and the files leave the camera.
    @Test func aBackupDiskThatFillsUpStopsAndTheNextImportCompletesItWithoutDuplicates() throws {
        try #require(TinyDisk.mount(backup, bytes: 400 << 10))
        defer { TinyDisk.unmount(backup) }
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let onCard = card.files(under: card.card + "/DCIM").count
        let first = try runImport(card, session: session, run: options { $0.deleteAfter = true }, chunkSize: 8 << 20)
        #expect(first.summary.failed == 0 && first.failedNames.isEmpty, "the first copy is whole")
        #expect(first.summary.stoppedDestinations.map(\.root) == [backup])
        #expect(first.summary.stoppedDestinations.first?.why.errno == ENOSPC, "\(first.summary.stoppedDestinations)")
        #expect(first.summary.deleted == 0 && card.files(under: card.card + "/DCIM").count == onCard)
        #expect(first.summary.manifests.count == 1 && first.summary.manifests.allSatisfy(FileManager.default.fileExists))
        let entries = try ledgerEntries(session)
        #expect(entries.count == first.summary.fetched && entries.allSatisfy { $0.missing == [backup] })
        #expect(Set(first.summary.missingCopies) == Set(entries.map(\.name)))
        let already = card.files(under: backup).filter { !$0.hasSuffix(".part") && !$0.hasSuffix(".xxh128") }
        #expect(!already.isEmpty, "some copies reached the backup before it filled")

        try #require(TinyDisk.grow(backup, bytes: 8 << 20))
        let again = try runImport(card, session: session, run: options { $0.deleteAfter = true }, chunkSize: 8 << 20)
        #expect(again.summary.bytes == 0 && again.summary.completedCopies == entries.count)
        #expect(again.summary.stoppedDestinations.isEmpty && again.summary.missingCopies.isEmpty)
        let backupFiles = card.files(under: backup).filter { !$0.hasSuffix(".xxh128") }
        #expect(!backupFiles.contains { $0.contains(" (2)") }, "\(backupFiles)")
        #expect(Set(backupFiles) == Set(card.files(under: card.pictures).filter { !$0.hasSuffix(".xxh128") }))
        for path in backupFiles {
            #expect(FileManager.default.contentsEqual(atPath: backup + "/" + path, andPath: card.pictures + "/" + path), "\(path)")
        }
        #expect(try ledgerEntries(session).allSatisfy { $0.missing == nil && $0.copies?.count == 2 })
        #expect(again.summary.deleted == entries.count && card.files(under: card.card + "/DCIM").count == onCard - entries.count)
    }
}
