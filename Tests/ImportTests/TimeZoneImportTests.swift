import Connectors
import Foundation
import MediaManager
import TestSupport
import Testing
@testable import Import

/// `--tz`: where times without a zone were shot. Their files' modification times are that clock time in the
/// zone given; a time with its own offset (EXIF OffsetTimeOriginal) and an instant (a card folder's file
/// time) are never moved by it; folder names keep the clock time as written.
@Suite(.tags(.process), .notInFastRun) struct TimeZoneImportTests {
    @Test func theZoneGivenPlacesTimesWithoutOneAndNeverMovesAZonedOne() throws {
        let card = try CardOnDisk()  // IMG_0004.JPG: EXIF 2024:05:01 10:12:03, no zone
        let photo = try card.bytes("DCIM/101MEDIA/IMG_0004.JPG")
        try card.add("DCIM/102MEDIA/IMG_0008.JPG", photo)
        guard let exiftool = ExternalTool.exiftool else {
            print("skipped: exiftool is not installed")
            return
        }
        try exiftool.run(["-q", "-overwrite_original", "-OffsetTimeOriginal=-05:00", card.card + "/DCIM/102MEDIA/IMG_0008.JPG"])
        try FileManager.default.setAttributes([.modificationDate: CardOnDisk.deviceDate], ofItemAtPath: card.card + "/DCIM/102MEDIA/IMG_0008.JPG")
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        let plus2 = try #require(TimeZone(secondsFromGMT: 7200))
        let outcome = try runImport(card, session: session, pattern: card.pictures + "/%Y/%m-%d/%H%M%S-%f") { $0.timeZone = plus2 }
        #expect(outcome.summary.failed == 0)
        let wall = 1_714_558_323.0  // 2024-05-01 10:12:03 as a clock time
        func mtime(_ path: String) -> Double? {
            ((try? FileManager.default.attributesOfItem(atPath: card.pictures + "/" + path))?[.modificationDate] as? Date)?
                .timeIntervalSince1970
        }
        // No zone: the clock time as written names it; its instant is that time in +02:00.
        #expect(mtime("2024/05-01/101203-IMG_0004.JPG") == wall - 7200)
        // Its own offset: named as written, the instant from its offset whatever --tz says.
        #expect(mtime("2024/05-01/101203-IMG_0008.JPG") == wall + 5 * 3600)
        // A card folder's file time is an instant: shown in the zone given (12:00 UTC is 14:00 there),
        // its instant unchanged.
        #expect(mtime("2024/06-01/140000-DJI_0002.JPG") == CardOnDisk.deviceDate.timeIntervalSince1970)
    }
}
