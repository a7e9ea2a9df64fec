import Checksums
import Connectors
import Foundation
import MediaManager
import POSIX
import Testing
import VirtualCamera
@testable import Import

/// Imports from a card folder through the in-process virtual camera (`dir:`), end to end.
@Suite struct ImportRunTests {
    func importCard(
        _ card: CardOnDisk, pattern: String? = nil, configure: (inout ImportOptions) -> Void = { _ in },
        run: ImportRun.Options = .init(), cancelAfterBytes: UInt64? = nil, datesFromDownload: Bool = false
    ) throws -> ImportOutcome {
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        return try runImport(
            card, session: session, pattern: pattern, configure: configure, run: run, cancelAfterBytes: cancelAfterBytes,
            datesFromDownload: datesFromDownload)
    }

    /// A first copy that cannot be written (a folder squats its `.part`'s name), its bytes read ahead whole:
    /// that file fails in a line; the others are brought; the ledger does not record it, and the next
    /// import brings exactly it.
    @Test func aFirstCopyThatCannotBeWrittenFailsThatFileAlone() throws {
        let card = try CardOnDisk()
        let squatter = card.pictures + "/2024/06-01/DJI_0002.JPG.part"
        try FileManager.default.createDirectory(atPath: squatter + "/inside", withIntermediateDirectories: true)
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let first = try runImport(card, session: session, chunkSize: 8 << 20)
        #expect(first.failedNames == ["DJI_0002.JPG"])
        #expect(first.summary.failed == 1 && first.summary.fetched == first.plan.toFetch.count + first.plan.unplacedFiles.count - 1)
        #expect(!first.fetchedNames.contains("DJI_0002.JPG"))
        if case .failed(_, let error)? = first.events.first(where: { if case .failed = $0 { true } else { false } }) {
            #expect(error is DownloadError, "\(error)")
        }
        #expect(!card.files(under: card.pictures).contains("2024/06-01/DJI_0002.JPG"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: card.pictures + "/2024/06-01/DJI_0001.MP4")) == Data(try card.bytes("DCIM/100MEDIA/DJI_0001.MP4")))

        try FileManager.default.removeItem(atPath: squatter)
        let again = try runImport(card, session: session, chunkSize: 8 << 20)
        #expect(again.fetchedNames == ["DJI_0002.JPG"] && again.summary.failed == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: card.pictures + "/2024/06-01/DJI_0002.JPG")) == Data(try card.bytes("DCIM/100MEDIA/DJI_0002.JPG")))
    }

    /// Run both ways: every date read before the run (as a dry run does), and a JPEG's date read from the
    /// first bytes of its download (16 kB here: smaller than the photos, so the rest comes after them).
    @Test(arguments: [false, true]) func bringsEveryNewFileOnceWithSidecarsAndCaptureTimes(datesFromDownload: Bool) throws {
        let card = try CardOnDisk()
        let first = try importCard(card, datesFromDownload: datesFromDownload)
        #expect(first.summary.fetched == 7)
        #expect(first.summary.failed == 0)
        let day = "2024/06-01"
        var expected = [
            "\(day)/DJI_0001.LRF", "\(day)/DJI_0001.MP4", "\(day)/DJI_0001.SRT", "\(day)/DJI_0002.JPG",
            "\(day)/IMG_0003.CR3", "\(day)/IMG_0003.JPG",
        ]
        // The EXIF date wins over the device's for the photo that has one.
        if card.files(under: card.card).contains("DCIM/101MEDIA/IMG_0004.JPG") { expected.append("2024/05-01/IMG_0004.JPG") }
        #expect(card.files(under: card.pictures) == expected.sorted())
        #expect(first.summary.fetched == expected.count)
        // Byte-identical, with the capture time as modification time; MISC is not DCIM.
        #expect(try Data(contentsOf: URL(fileURLWithPath: card.pictures + "/\(day)/DJI_0001.MP4")) == Data(try card.bytes("DCIM/100MEDIA/DJI_0001.MP4")))
        let mtime = try FileManager.default.attributesOfItem(atPath: card.pictures + "/\(day)/DJI_0002.JPG")[.modificationDate] as? Date
        #expect(mtime.map { abs($0.timeIntervalSince(CardOnDisk.deviceDate)) < 1 } == true)

        // A second run brings nothing, and says so.
        let second = try importCard(card, datesFromDownload: datesFromDownload)
        #expect(second.summary.fetched == 0)
        #expect(second.summary.skipped == expected.count)
        #expect(second.plan.toFetch.isEmpty)

        // Moving the local files away does not make them new.
        try FileManager.default.moveItem(atPath: card.pictures, toPath: card.root + "/elsewhere")
        let third = try importCard(card, datesFromDownload: datesFromDownload)
        #expect(third.summary.fetched == 0)
        #expect(!FileManager.default.fileExists(atPath: card.pictures))

        // A new file on the card: exactly that one.
        try card.add("DCIM/101MEDIA/IMG_0005.JPG", patternedBytes(1234, seed: 42), offset: 86_400)
        let fourth = try importCard(card, datesFromDownload: datesFromDownload)
        #expect(fourth.summary.fetched == 1)
        #expect(card.files(under: card.pictures) == ["2024/06-02/IMG_0005.JPG"])

        // --again ignores the ledger: the files already at their destination are recognised, not doubled.
        try FileManager.default.removeItem(atPath: card.root + "/elsewhere")
        let again = try importCard(card, configure: { $0.again = true }, datesFromDownload: datesFromDownload)
        #expect(again.summary.fetched == expected.count)
        #expect(again.summary.skipped == 1)
        #expect(card.files(under: card.pictures).count == expected.count + 1)
    }

    @Test func sidecarsAndProxiesCanBeLeftOut() throws {
        let card = try CardOnDisk()
        let run = try importCard(card, pattern: card.pictures) { $0.sidecars = false; $0.proxies = false }
        let names = card.files(under: card.pictures)
        #expect(!names.contains("DJI_0001.SRT") && !names.contains("DJI_0001.LRF"))
        #expect(names.contains("DJI_0001.MP4") && names.contains("IMG_0003.CR3") && names.contains("IMG_0003.JPG"))
        #expect(run.summary.failed == 0)
    }

    /// Run both ways: every date read before the run (as a dry run does), and a JPEG's date read from the
    /// first bytes of its download (16 kB here: smaller than the photos, so the rest comes after them).
    @Test(arguments: [false, true]) func aDifferentFileAtTheNameGetsAUniqueNameRecordedInTheLedger(datesFromDownload: Bool) throws {
        let card = try CardOnDisk()
        try FileManager.default.createDirectory(atPath: card.pictures, withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: card.pictures + "/DJI_0002.JPG"))
        let run = try importCard(card, pattern: card.pictures + "/%f", datesFromDownload: datesFromDownload)
        #expect(run.summary.renamed == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: card.pictures + "/DJI_0002.JPG")) == Data([1, 2, 3]))
        #expect(try Data(contentsOf: URL(fileURLWithPath: card.pictures + "/DJI_0002 (2).JPG")) == Data(try card.bytes("DCIM/100MEDIA/DJI_0002.JPG")))
        let ledger = try ImportLedger(cameraKey: try ledgerKey(card), folder: card.ledgers)
        #expect(ledger.entries.contains { $0.path == card.pictures + "/DJI_0002 (2).JPG" && $0.xxh128 != nil })
    }

    func ledgerKey(_ card: CardOnDisk) throws -> String {
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        return try Importer.ledgers(for: session, folder: card.ledgers).all[0].cameraKey
    }

    /// Run both ways: every date read before the run (as a dry run does), and a JPEG's date read from the
    /// first bytes of its download (16 kB here: smaller than the photos, so the rest comes after them).
    @Test(arguments: [false, true]) func anInterruptedImportContinuesAndBringsNothingTwice(datesFromDownload: Bool) throws {
        let card = try CardOnDisk()
        let first = try importCard(card, cancelAfterBytes: 200_000, datesFromDownload: datesFromDownload)
        #expect(first.summary.interrupted)
        #expect(first.events.contains { if case .stopped = $0 { true } else { false } })
        let leftParts = card.files(under: card.pictures).filter { $0.hasSuffix(".part") }
        #expect(leftParts.count == 1)
        // The stopped file's bytes are counted, and said to be kept (issue 41.5: they were left out).
        let kept = try #require(LocalDisk.size(card.pictures + "/" + (leftParts.first ?? "")))
        #expect(first.summary.bytesKept == kept && first.summary.bytes >= kept, "\(first.summary)")
        let second = try importCard(card, datesFromDownload: datesFromDownload)
        #expect(!second.summary.interrupted)
        let planned = second.plan.items.count + second.plan.unplaced.reduce(0) { $0 + $1.members.count }
        #expect(second.summary.fetched + first.summary.fetched == planned)
        #expect(second.events.contains { if case .fetched(_, _, let from, _) = $0 { from > 0 } else { false } })
        let files = card.files(under: card.pictures)
        #expect(!files.contains { $0.hasSuffix(".part") || $0.contains(" (2)") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: card.pictures + "/2024/06-01/DJI_0001.MP4")) == Data(try card.bytes("DCIM/100MEDIA/DJI_0001.MP4")))
        #expect(try importCard(card, datesFromDownload: datesFromDownload).summary.fetched == 0)
    }

    /// A camera without GetPartialObject gives each file whole, in one GetObject: a file larger than one
    /// chunk still arrives, and an earlier attempt's `.part` is started again from byte 0 with its hash.
    @Test func aCameraWithoutPartialReadsGivesEachFileWholeAndAnOldPartStartsOver() throws {
        let card = try CardOnDisk()
        let session = try openInProcess(try Card(folder: card.card), quirks: [.noPartial])
        defer { session.close() }
        #expect(!session.camera.canReadRanges)
        try session.catalog.ensureLoaded()
        let options = ImportOptions(pattern: try DestinationPattern(card.pictures + "/%f"))
        let ledgers = try Importer.ledgers(for: session, folder: card.ledgers)
        let groups = CardSelection.groups(for: CardSelection.dcimFiles(in: session.catalog), in: session.catalog)
        let plan = Importer.plan(groups, session: session, options: options, ledgers: ledgers)
        // What an interrupted attempt on another camera could have left: the file's first bytes, and junk.
        let video = try card.bytes("DCIM/100MEDIA/DJI_0001.MP4")
        try FileManager.default.createDirectory(atPath: card.pictures, withIntermediateDirectories: true)
        try Data(video.prefix(100_000) + [UInt8](repeating: 0xEE, count: 10)).write(
            to: URL(fileURLWithPath: card.pictures + "/DJI_0001.MP4.part"))
        var importRun = ImportRun(session: session, plan: plan, ledgers: ledgers)
        importRun.options.chunkSize = 16 << 10  // far smaller than the 300 kB video
        let summary = try importRun.run(cancellation: Cancellation(), progress: { _ in }, event: { _ in })
        #expect(summary.failed == 0)
        #expect(summary.fetched == plan.items.count)
        #expect(try Data(contentsOf: URL(fileURLWithPath: card.pictures + "/DJI_0001.MP4")) == Data(video))
        let ledger = try ImportLedger(cameraKey: ledgers.all[0].cameraKey, folder: card.ledgers)
        let recorded = ledger.entries.first { $0.path == card.pictures + "/DJI_0001.MP4" }?.xxh128
        #expect(recorded == XXH128.hexDigest(of: video))
    }

    /// Run both ways: every date read before the run (as a dry run does), and a JPEG's date read from the
    /// first bytes of its download (16 kB here: smaller than the photos, so the rest comes after them).
    @Test(arguments: [false, true]) func deleteAfterDeletesOnlyWhatIsRecorded(datesFromDownload: Bool) throws {
        let card = try CardOnDisk()
        let run = try importCard(card, run: { var o = ImportRun.Options(); o.deleteAfter = true; return o }(), datesFromDownload: datesFromDownload)
        #expect(run.summary.deleted == run.summary.fetched)
        #expect(card.files(under: card.card + "/DCIM").isEmpty)
        #expect(card.files(under: card.card) == ["MISC/NOTES.TXT"])
        let ledger = try ImportLedger(cameraKey: try ledgerKey(card), folder: card.ledgers)
        #expect(ledger.entries.count == run.summary.fetched)
    }

    @Test func aCorruptLedgerStopsTheImport() throws {
        let card = try CardOnDisk()
        let key = try ledgerKey(card)
        try FileManager.default.createDirectory(atPath: card.ledgers, withIntermediateDirectories: true)
        let path = card.ledgers + "/" + LedgerLocation.fileName(for: key)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImportError.corruptLedger(path: path, detail: "not JSON")) { _ = try importCard(card) }
        #expect(!FileManager.default.fileExists(atPath: card.pictures))
    }
}

/// `import --delete-after` with files already at their destinations (a run whose ledger is gone, a copy
/// made by hand): a file of the same name, size and date is deleted from the camera only once its bytes
/// prove it is the camera's file (issue 41: nothing carried between runs is trusted by its name).
@Suite struct AlreadyThereProofTests {
    @Test func aFileAlreadyThereIsDeletedFromTheCameraOnlyWhenItsBytesAreTheCameras() throws {
        let card = try CardOnDisk()
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let first = try runImport(card, session: session)
        #expect(first.summary.failed == 0 && first.summary.fetched > 2)
        // The ledger lost; one copy changed in a byte, its size and time kept.
        try FileManager.default.removeItem(atPath: card.ledgers)
        let copies = card.files(under: card.pictures).filter { !$0.hasSuffix(".xxh128") }
        let changed = try #require(copies.first { $0.hasSuffix("DJI_0002.JPG") })
        let path = card.pictures + "/" + changed
        let time = try #require(LocalDisk.modificationTime(path))
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[1_000] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try LocalDisk.setModificationTime(path, to: time)

        let again = try runImport(card, session: session, run: { var o = ImportRun.Options(); o.deleteAfter = true; return o }())
        #expect(again.summary.fetched == 0)
        #expect(again.failedNames == ["DJI_0002.JPG"])
        if case .failed(_, let error)? = again.events.first(where: { if case .failed = $0 { true } else { false } }) {
            guard case ImportError.notTheCamerasFile(let at, _, _) = error else {
                Issue.record("not notTheCamerasFile: \(error)")
                return
            }
            #expect(at == path)
        }
        #expect(again.summary.deleted == first.summary.fetched - 1)
        #expect(FileManager.default.fileExists(atPath: card.card + "/DCIM/100MEDIA/DJI_0002.JPG"), "kept on the camera")
        #expect(!FileManager.default.fileExists(atPath: card.card + "/DCIM/100MEDIA/DJI_0001.MP4"), "proven, deleted")
    }
}
