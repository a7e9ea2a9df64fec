import Checksums
import Connectors
import Foundation
import MediaManager
import POSIX
import Testing
@testable import Import

/// `--verify read-back`: each copy, once synced, is read again from the disk and must give the checksum
/// its bytes had as they arrived. A copy that reads back wrong (a drive that lies; here a test seam flips
/// one byte) fails in a clear line, is kept aside under a name that says so, is neither recorded nor in the
/// manifest, and is not deleted from the camera; the next import brings it again.
@Suite struct ReadBackTests {
    static let victim = "DJI_0002.JPG"

    /// Flips one byte of the copy of `victim` between its sync and its read-back, as a drive that lies.
    static func corruptingVictim(_ path: String) {
        guard path.hasSuffix("/" + victim), let handle = FileHandle(forUpdatingAtPath: path) else { return }
        defer { try? handle.close() }
        try? handle.seek(toOffset: 100)
        guard let byte = try? handle.read(upToCount: 1)?.first else { return }
        try? handle.seek(toOffset: 100)
        try? handle.write(contentsOf: Data([byte ^ 0x40]))
        try? handle.synchronize()
    }

    @Test func aCopyThatReadsBackWrongIsSetAsideNotRecordedAndNotDeleted() throws {
        let card = try CardOnDisk()
        var options = ImportRun.Options()
        options.verification = .readBack
        options.deleteAfter = true
        options.writesManifest = true
        options.beforeReadBack = { Self.corruptingVictim($0) }
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let outcome = try runImport(card, session: session, run: options)

        #expect(outcome.failedNames == [Self.victim])
        #expect(outcome.summary.failed == 1)
        let failure = outcome.events.compactMap { event -> ImportError? in
            if case .failed(_, let error as ImportError) = event { return error } else { return nil }
        }.first
        guard case .copyReadBackWrong(let path, let keptAs, let expected, let found)? = failure else {
            Issue.record("not a read-back failure: \(outcome.events)")
            return
        }
        #expect(keptAs == path + ".verify-failed" && FileManager.default.fileExists(atPath: keptAs))
        #expect(!FileManager.default.fileExists(atPath: path), "the bad copy does not keep the name")
        #expect(expected.hasPrefix("xxh128:") && found.hasPrefix("xxh128:") && expected != found)

        // Neither recorded nor in the manifest; every other file is, and was deleted from the camera.
        let ledger = try ImportLedger(cameraKey: Importer.ledgers(for: session, folder: card.ledgers).all[0].cameraKey, folder: card.ledgers)
        #expect(!ledger.entries.contains { $0.name == Self.victim })
        #expect(ledger.entries.count == outcome.summary.fetched && ledger.entries.allSatisfy { $0.xxh128 != nil })
        let manifest = try String(contentsOfFile: try #require(outcome.summary.manifests.first), encoding: .utf8)
        #expect(!manifest.contains(Self.victim) && manifest.split(separator: "\n").count == outcome.summary.fetched)
        #expect(FileManager.default.fileExists(atPath: card.card + "/DCIM/100MEDIA/" + Self.victim), "deleted unproven")
        #expect(card.files(under: card.card + "/DCIM").count == 1, "the proven ones are deleted")

        // Wrong again: the second bad copy is set aside beside the first, which is kept (evidence is never
        // replaced).
        try session.catalog.reload()
        let wrongAgain = try runImport(card, session: session, run: options)
        let second = wrongAgain.events.compactMap { event -> ImportError? in
            if case .failed(_, let error as ImportError) = event { return error } else { return nil }
        }.first
        guard case .copyReadBackWrong(_, let keptAgain, _, _)? = second else {
            Issue.record("not a read-back failure: \(wrongAgain.events)")
            return
        }
        #expect(keptAgain == path + ".verify-failed-2" && FileManager.default.fileExists(atPath: keptAgain))
        #expect(FileManager.default.fileExists(atPath: keptAs), "the first bad copy is kept")

        // The next import brings it again, and this time it reads back right.
        options.beforeReadBack = nil
        try session.catalog.reload()
        let again = try runImport(card, session: session, run: options)
        #expect(again.fetchedNames == [Self.victim] && again.summary.failed == 0)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == patternedBytes(50_000, seed: 4))
    }

    /// Read back or written, the same files arrive, recorded with the checksum of their bytes; none
    /// computes no checksum and writes no manifest.
    @Test(arguments: CopyVerification.allCases) func everyVerificationBringsTheSameFiles(verification: CopyVerification) throws {
        let card = try CardOnDisk()
        var options = ImportRun.Options()
        options.verification = verification
        options.writesManifest = true
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let outcome = try runImport(card, session: session, run: options)
        #expect(outcome.summary.failed == 0 && outcome.summary.fetched >= 6)
        let ledger = try ImportLedger(cameraKey: Importer.ledgers(for: session, folder: card.ledgers).all[0].cameraKey, folder: card.ledgers)
        for entry in ledger.entries {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: entry.path)))
            #expect(entry.xxh128 == (verification == .none ? nil : XXH128.hexDigest(of: bytes)), "\(entry.path)")
        }
        #expect(outcome.summary.manifests.count == (verification == .none ? 0 : 1))
    }

    /// What `readFromDisk` gives is the file, whatever its size against the buffer.
    @Test func readingFromTheDiskGivesTheWholeFile() throws {
        let folder = try temporaryFolder("readback")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = patternedBytes((4 << 20) + 12_345, seed: 9)
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/f"))
        let hash = XXH128()
        let count = try LocalDisk.readFromDisk(folder + "/f") { hash.update($0) }
        #expect(count == UInt64(bytes.count) && hash.hexDigest() == XXH128.hexDigest(of: bytes))
    }
}
