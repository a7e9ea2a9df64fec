import Connectors
import Foundation
import MediaManager
import POSIX
import Testing
@testable import Import

/// An import commits each group of files (a sync, the renames, a second sync, the read-back) on a thread
/// of its own while the next group downloads, and still records, tells and deletes in order, each file only
/// once it is on disk under its name.
@Suite struct ImportCommitterTests {
    /// A card of one group and a few files more, small ones.
    static func cardOfTwoGroups() throws -> CardOnDisk {
        let card = try CardOnDisk()
        for index in 1...(ImportRun.groupFiles + 20) {
            try card.add(String(format: "DCIM/102MEDIA/IMG_%04d.JPG", index), patternedBytes(600, seed: UInt8(index % 251)))
        }
        return card
    }

    /// The first group's read-back waits until the run is downloading a file of the second group: that
    /// happens only when the commit is not on the run's thread (there, the wait would run out and the
    /// test fail). Everything arrives, is recorded with its checksum, told in the order it came and deleted after.
    @Test func theNextGroupDownloadsWhileOneIsSyncedAndReadBack() throws {
        let card = try Self.cardOfTwoGroups()
        let downloading = LockedCondition(0)  // the files done when the run last reported progress
        let downloadOrder = Locked<[String]>([])
        let sawTheNextGroup = Locked<Bool?>(nil)
        var options = ImportRun.Options()
        options.verification = .readBack
        options.deleteAfter = true
        options.beforeReadBack = { _ in
            sawTheNextGroup.withLock { seen in
                guard seen == nil else { return }
                seen = downloading.wait(until: .after(30)) { $0 >= ImportRun.groupFiles }
            }
        }
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let total = card.files(under: card.card + "/DCIM").count
        let outcome = try runImport(card, session: session, run: options, stopWhen: { p in
            downloading.change { $0 = max($0, p.filesDone) }
            downloadOrder.withLock { if $0.last != p.current { $0.append(p.current) } }
            return false
        })

        #expect(sawTheNextGroup.withLock { $0 } == true, "the first group's commit held the download back")
        #expect(outcome.summary.failed == 0 && outcome.summary.fetched == total)
        #expect(outcome.summary.deleted == total && card.files(under: card.card + "/DCIM").isEmpty)
        let names = outcome.fetchedNames
        let deleted = outcome.events.compactMap { if case .deleted(let item) = $0 { item.file.name } else { nil } }
        #expect(deleted == names, "deleted in the order told, each after it was told")
        let ledger = try ImportLedger(
            cameraKey: Importer.ledgers(for: session, folder: card.ledgers).all[0].cameraKey, folder: card.ledgers)
        #expect(ledger.entries.count == total && ledger.entries.allSatisfy { $0.xxh128 != nil })
        #expect(names == downloadOrder.withLock { $0 }, "told in the order they came")
    }

    /// Ctrl-C in the second group: the first, handed off and still being committed, is recorded too, and
    /// the next import brings exactly the files the first did not record.
    @Test func ctrlCWhileAGroupIsCommittedRecordsItAndTheNextImportBringsTheRest() throws {
        let card = try Self.cardOfTwoGroups()
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let first = try runImport(card, session: session, stopWhen: { $0.filesDone >= ImportRun.groupFiles + 5 })
        #expect(first.summary.interrupted && first.summary.failed == 0 && first.summary.fetched > ImportRun.groupFiles)
        let ledgers = try Importer.ledgers(for: session, folder: card.ledgers)
        let recorded = try ImportLedger(cameraKey: ledgers.all[0].cameraKey, folder: card.ledgers).entries
        #expect(recorded.count == first.summary.fetched)
        #expect(Set(recorded.map(\.name)) == Set(first.fetchedNames))

        let again = try runImport(card, session: session)
        #expect(again.summary.failed == 0 && !again.summary.interrupted)
        #expect(Set(again.fetchedNames).isDisjoint(with: first.fetchedNames))
        let all = try ImportLedger(cameraKey: ledgers.all[0].cameraKey, folder: card.ledgers).entries
        #expect(all.count == first.summary.fetched + again.summary.fetched)
        #expect(card.files(under: card.pictures).filter { $0.hasSuffix(".part") }.isEmpty)
    }
}
