import Checksums
import Connectors
import Foundation
import MediaManager
import Testing
@testable import Import

/// `verify`: every copy the ledger records (both destinations') read back and compared; bit rot and a
/// missing copy are found, each exactly once, naming what recorded it; the manifests check a folder even
/// after it was moved where the ledger does not look.
@Suite struct VerifyTests {
    @Test func theLedgerAndTheManifestsFindAChangedAndAMissingCopy() throws {
        let card = try CardOnDisk()
        let backup = card.root + "/Backup"
        try FileManager.default.createDirectory(atPath: backup, withIntermediateDirectories: true)
        var options = ImportRun.Options()
        options.backups = [BackupTarget(folder: backup)]
        options.writesManifest = true
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let outcome = try runImport(card, session: session, run: options)
        #expect(outcome.summary.failed == 0)

        let copies = try CopyVerifier.fromLedgers(folder: card.ledgers)
        #expect(copies.count == 2 * outcome.summary.fetched)
        let clean = CopyVerifier.check(copies) { Issue.record("a problem in a fresh import: \($0)") }
        #expect(clean.problems.isEmpty && clean.copies == copies.count && clean.withoutChecksum == 0)

        // Bit rot in the first copy of one file, the backup of another gone.
        let rotten = try #require(copies.first { $0.path.hasPrefix(card.pictures) && $0.path.hasSuffix("DJI_0001.MP4") })
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: rotten.path))
        try handle.seek(toOffset: 150_000)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: 150_000)
        try handle.write(contentsOf: Data([byte ^ 0x08]))
        try handle.close()
        let gone = try #require(copies.first { $0.path.hasPrefix(backup) && $0.path.hasSuffix("IMG_0003.CR3") })
        try FileManager.default.removeItem(atPath: gone.path)

        var said: [CopyProblem] = []
        let report = CopyVerifier.check(copies) { said.append($0) }
        #expect(said == report.problems && report.problems.count == 2)
        guard case .changed(let changed, let found)? = report.problems.first(where: { $0.copy.path == rotten.path }) else {
            Issue.record("the changed copy was not found: \(report.problems)")
            return
        }
        #expect(changed.expected != found && changed.recordedBy.hasSuffix(".json"))
        #expect(report.problems.contains(.missing(gone)))

        // The backup folder moved elsewhere: the ledger no longer finds it, its manifest does.
        let moved = card.root + "/Moved"
        try FileManager.default.moveItem(atPath: backup, toPath: moved)
        let fromManifest = try CopyVerifier.fromManifests(in: moved)
        #expect(fromManifest.count == outcome.summary.fetched && fromManifest.allSatisfy { $0.recordedBy.hasSuffix(".xxh128") })
        let movedReport = CopyVerifier.check(fromManifest) { _ in }
        #expect(movedReport.problems.map(\.copy.path) == [moved + gone.path.dropFirst(backup.count)], "only the deleted one")
        #expect(try CopyVerifier.fromLedgers(folder: card.ledgers, within: [moved]).isEmpty)
    }
}
