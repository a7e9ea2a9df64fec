import Checksums
import Failures
import Foundation
import MediaManager
import POSIX
import PTP
import TestSupport
import Testing
import VirtualCamera
@testable import Import

/// A photo whose first bytes cannot be read (the camera answers an error, the connection drops) while a run
/// reads them for its EXIF date: it fails, named, and nothing of it is written or recorded; the run goes on
/// with the other files (or stops, when the camera is gone), and the next import brings it, by its own date.
@Suite struct FirstBytesFailureTests {
    /// The card of `CardOnDisk` and, as the first JPEG of a third folder, a photo whose EXIF date (1 May)
    /// is not the date the camera lists (1 June): filed under the listed date, it would be in the wrong
    /// folder. With `unreadable-jpeg` or `drop-at-jpeg` the first JPEG of each folder fails: DJI_0002.JPG,
    /// IMG_0003.JPG (the JPEG of a RAW+JPEG pair) and IMG_0008.JPG.
    static func card() throws -> CardOnDisk? {
        let card = try CardOnDisk()
        guard let photo = DemoMedia.file("photo_landscape.jpg") else { return nil }
        try card.add("DCIM/102MEDIA/IMG_0008.JPG", Array(try Data(contentsOf: URL(fileURLWithPath: photo))))
        return card
    }

    static let unreadable: Set<String> = ["DJI_0002.JPG", "IMG_0003.JPG", "IMG_0008.JPG"]

    /// Every file of `card` the import brings, where it goes when every date is known.
    static let destinations = [
        "DCIM/100MEDIA/DJI_0001.LRF": "2024/06-01/DJI_0001.LRF", "DCIM/100MEDIA/DJI_0001.MP4": "2024/06-01/DJI_0001.MP4",
        "DCIM/100MEDIA/DJI_0001.SRT": "2024/06-01/DJI_0001.SRT", "DCIM/100MEDIA/DJI_0002.JPG": "2024/06-01/DJI_0002.JPG",
        "DCIM/101MEDIA/IMG_0003.CR3": "2024/06-01/IMG_0003.CR3", "DCIM/101MEDIA/IMG_0003.JPG": "2024/06-01/IMG_0003.JPG",
        "DCIM/101MEDIA/IMG_0004.JPG": "2024/05-01/IMG_0004.JPG", "DCIM/102MEDIA/IMG_0008.JPG": "2024/05-01/IMG_0008.JPG",
    ]

    /// Imports `card` from an in-process camera with `quirks`, its JPEGs dated from their first bytes.
    static func importing(
        _ card: CardOnDisk, quirks: Quirks = [], chunkSize: Int = 16 << 10, stopAfter: ((Error) -> Bool)? = nil
    ) throws -> (ImportOutcome, cameraKey: String) {
        let session = try openInProcess(try Card(folder: card.card), quirks: quirks)
        defer { session.close() }
        let outcome = try runImport(card, session: session, chunkSize: chunkSize, datesFromDownload: true, stopAfter: stopAfter)
        return (outcome, try Importer.ledgers(for: session, folder: card.ledgers).all[0].cameraKey)
    }

    /// Every file under the destination is whole and where its date puts it, and the ledger records exactly
    /// those, each at its path with its bytes' hash: nothing half-written, nothing recorded that is not home.
    static func expectHomeAndRecordedExactly(_ card: CardOnDisk, cameraKey: String, missing: Set<String>) throws {
        let home = destinations.filter { !missing.contains(($0.key as NSString).lastPathComponent) }
        #expect(card.files(under: card.pictures) == home.values.sorted())
        for (source, destination) in home {
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: card.pictures + "/" + destination))) == (try card.bytes(source)))
        }
        let ledger = try ImportLedger(cameraKey: cameraKey, folder: card.ledgers)
        #expect(Set(ledger.entries.map(\.path)) == Set(home.values.map { card.pictures + "/" + $0 }))
        for entry in ledger.entries {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: entry.path)))
            #expect(entry.checksum == Checksum(.xxh128, hex: XXH128.hexDigest(of: bytes)), "\(entry.path)")
        }
    }

    /// 16 kB a request (each photo's first chunk read for its date, the rest after it) and 8 MB (each photo
    /// whole in its first request, all of them read ahead of the run).
    @Test(arguments: [16 << 10, 8 << 20]) func aPhotoTheCameraCannotReadFailsAloneAndComesNextTime(chunkSize: Int) throws {
        guard let card = try Self.card() else { return }
        let (first, key) = try Self.importing(card, quirks: [.unreadableJPEG], chunkSize: chunkSize)
        // The run went on past each failure: every other file came, the RAW of the pair too.
        #expect(first.summary.failed == 3)
        #expect(Set(first.failedNames) == Self.unreadable)
        #expect(first.summary.fetched == Self.destinations.count - 3)
        #expect(Set(first.fetchedNames) == Set(Self.destinations.keys.map { ($0 as NSString).lastPathComponent }).subtracting(Self.unreadable))
        #expect(!first.summary.interrupted)
        // Each failure says which file and the camera's answer, and that nothing of it was written.
        for case .failed(let item, let error) in first.events {
            guard case DownloadError.interrupted(let name, _, let at, let size, let cause) = error else {
                Issue.record("\(item.file.name): \(error)")
                continue
            }
            #expect(name == item.file.name && at == 0 && size == item.file.size)
            if case PTPError.response(let code, _, _)? = cause as? PTPError {
                #expect(code == .generalError)
            } else {
                Issue.record("\(item.file.name): \(cause)")
            }
        }
        // Nothing of the failed photos is at the destination (no .part either), nor in the ledger.
        try Self.expectHomeAndRecordedExactly(card, cameraKey: key, missing: Self.unreadable)

        // The camera reads them again: the next import brings exactly those, each by its own date.
        let (second, _) = try Self.importing(card, chunkSize: chunkSize)
        #expect(second.summary.failed == 0)
        #expect(Set(second.fetchedNames) == Self.unreadable)
        try Self.expectHomeAndRecordedExactly(card, cameraKey: key, missing: [])
        #expect(try Self.importing(card, chunkSize: chunkSize).0.summary.fetched == 0)
    }

    /// The connection drops when the first of them is asked for. Every request of the run is read ahead
    /// here (8 MB each: every file fits one), so the drop comes at DJI_0002.JPG's first bytes and the files
    /// before it are home; the run stops there (as `stopAfter` says for a camera gone) instead of failing
    /// every file left.
    @Test func aDropWhileAPhotosFirstBytesComeStopsTheRunAndTheNextImportBringsTheRest() throws {
        guard let card = try Self.card() else { return }
        var seen: [Error] = []
        let (first, key) = try Self.importing(card, quirks: [.dropAtJPEG], chunkSize: 8 << 20) { error in
            seen.append(error)
            return error.failureCategory == .disconnected
        }
        #expect(first.failedNames == ["DJI_0002.JPG"])
        #expect(seen.count == 1)
        // The error is a download's, so the shell's camera-gone check (`DownloadError.interrupted`) applies.
        if case DownloadError.interrupted(let name, _, 0, _, let cause)? = seen.first {
            #expect(name == "DJI_0002.JPG")
            #expect(cause.failureCategory == .disconnected)
        } else {
            Issue.record("\(seen)")
        }
        let before: Set<String> = ["DJI_0001.MP4", "DJI_0001.SRT", "DJI_0001.LRF"]
        #expect(Set(first.fetchedNames) == before)
        let notReached = Set(Self.destinations.keys.map { ($0 as NSString).lastPathComponent }).subtracting(before)
        try Self.expectHomeAndRecordedExactly(card, cameraKey: key, missing: notReached)

        // Connected again (a camera that no longer drops): the rest comes, nothing twice.
        let (second, _) = try Self.importing(card, chunkSize: 8 << 20)
        #expect(second.summary.failed == 0)
        #expect(Set(second.fetchedNames) == notReached)
        try Self.expectHomeAndRecordedExactly(card, cameraKey: key, missing: [])
    }

    /// The read-ahead goes on past a photo the camera refuses (the run keeps its pace after a damaged file),
    /// and stops at a lost link (no request is sent to a camera that is gone).
    @Test(arguments: [Quirk.unreadableJPEG, .dropAtJPEG]) func theReadAheadGoesOnOnlyPastAPhotoTheCameraRefuses(quirk: Quirk) throws {
        let card = try CardOnDisk()
        let session = try openInProcess(try Card(folder: card.card), quirks: [quirk])
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let refused = try #require(session.catalog.file(atPath: "/DCIM/100MEDIA/DJI_0002.JPG"))
        let next = try #require(session.catalog.file(atPath: "/DCIM/100MEDIA/DJI_0001.SRT"))
        let readAhead = FirstBytesReadAhead(
            files: [refused, next], camera: session.camera, chunkSize: 8 << 20, sizing: nil, cancellation: .never)
        defer { readAhead.finish() }
        guard case .failure? = readAhead.take(refused) else {
            Issue.record("\(refused.name) was read")
            return
        }
        let after = readAhead.take(next)
        if quirk == .unreadableJPEG {
            guard case .success(let first)? = after else {
                Issue.record("\(String(describing: after))")
                return
            }
            #expect(first.bytes == (try card.bytes("DCIM/100MEDIA/DJI_0001.SRT")))
        } else {
            #expect(after == nil)
        }
    }
}
