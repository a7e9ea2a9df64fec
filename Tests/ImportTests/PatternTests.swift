import Checksums
import Foundation
import MediaFormats
@testable import MediaManager
import Testing
@testable import Import

@Suite struct PatternTests {
    let utc = TimeZone(identifier: "UTC")!
    // 2024-05-01 10:12:03 UTC
    let date = Date(timeIntervalSince1970: 1_714_558_323)

    func values(_ name: String = "DJI_0042.MP4", folder: String = "DCIM/100MEDIA", model: String = "FC3582", sequence: Int = 7)
        -> PatternValues
    {
        PatternValues(fileName: name, cardFolder: folder, cameraModel: model, date: date, sequence: sequence, timeZone: utc)
    }

    @Test func tokensExpand() throws {
        let p = try DestinationPattern("/pics/%Y/%Y-%m-%d/%H%M%S_%c_%F_%n_%b.%e")
        #expect(p.path(for: values()) == "/pics/2024/2024-05-01/101203_FC3582_100MEDIA_0007_DJI_0042.MP4")
        #expect(p.fixedRoot == "/pics")
        #expect(p.usesDate)
        #expect(try DestinationPattern("out/%f").fixedRoot == "out")
        #expect(try DestinationPattern("%Y/%f").fixedRoot == ".")
        #expect(try DestinationPattern("/a/b/%%/%f").path(for: values()) == "/a/b/%/DJI_0042.MP4")
    }

    @Test func aPatternOfOnlyAFileNameWritesIntoTheCurrentFolder() throws {
        // Its folder is ".", never "" (which no file can be created in).
        #expect(try DestinationPattern("%f").path(for: values()) == "./DJI_0042.MP4")
        #expect(try DestinationPattern("./%b.%e").path(for: values()) == "./DJI_0042.MP4")
        #expect(try DestinationPattern("./x/%f").path(for: values()) == "x/DJI_0042.MP4")
    }

    @Test func aPatternWithoutAFileNameIsAFolder() throws {
        let p = try DestinationPattern("/pics/%Y/%m-%d")
        #expect(p.path(for: values()) == "/pics/2024/05-01/DJI_0042.MP4")
        #expect(try DestinationPattern("/pics/").path(for: values()) == "/pics/DJI_0042.MP4")
        #expect(!(try DestinationPattern("/pics")).usesDate)
    }

    @Test(arguments: ["/x/%q", "/x/%", "", "/x/%Y/../%f"])
    func badPatternsAreRefused(_ text: String) {
        #expect(throws: ImportError.self) { _ = try DestinationPattern(text) }
    }

    @Test func deviceValuesCannotEscape() throws {
        let p = try DestinationPattern("/pics/%c/%F/%f")
        let path = p.path(for: values("../../etc/passwd", folder: "DCIM/..", model: "../.."))
        #expect(!path.split(separator: "/").contains(".."))
        #expect(path.hasPrefix("/pics/"))
        #expect(path.split(separator: "/").count == 4)
        // An empty value is never an empty path part.
        #expect(try DestinationPattern("/pics/%e/%f").path(for: values("README")).split(separator: "/").allSatisfy { !$0.isEmpty })
    }

    @Test func exifDates() {
        #expect(CaptureTime.exif("2024:05:01 10:12:03")?.instant(assuming: utc) == date)
        #expect(CaptureTime.exif("0000:00:00 00:00:00") == nil)
        #expect(CaptureTime.exif("2024:13:01 10:12:03") == nil)
        #expect(CaptureTime.exif("2024:02:30 10:12:03") == nil)
        #expect(CaptureTime.exif("garbage") == nil)
        // The offset written with it decides the instant, whatever zone is assumed.
        let zoned = CaptureTime.exif("2024:05:01 12:12:03", subSeconds: "25", offset: "+02:00")
        #expect(zoned?.instant(assuming: TimeZone(identifier: "Asia/Tokyo")!) == date.addingTimeInterval(0.25))
        #expect(zoned?.text == "2024-05-01T12:12:03.25+02:00")
    }
}

@Suite struct ClashTests {
    let captured = Date(timeIntervalSince1970: 1_700_000_000)

    func write(_ path: String, _ bytes: [UInt8], mtime: Date) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: path)
    }

    @Test func sameContentIsAlreadyThereDifferentContentIsRenamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(folder + "/A.JPG", patternedBytes(100, seed: 1), mtime: captured)
        var resolver = ClashResolver()
        // Same size, same time: the same file.
        #expect(resolver.place(folder + "/A.JPG", size: 100, captured: captured) == (.alreadyThere(path: folder + "/A.JPG"), false))
        // A different size at the same name: a unique name, and the next one in the same run another.
        var second = ClashResolver()
        #expect(second.place(folder + "/A.JPG", size: 200, captured: captured) == (.write(path: folder + "/A (2).JPG", partBytes: 0), true))
        #expect(second.place(folder + "/A.JPG", size: 300, captured: captured) == (.write(path: folder + "/A (3).JPG", partBytes: 0), true))
        // Names that differ only in case collide within a run.
        #expect(second.place(folder + "/b.jpg", size: 1, captured: captured).renamed == false)
        #expect(second.place(folder + "/B.JPG", size: 1, captured: captured) == (.write(path: folder + "/B (2).JPG", partBytes: 0), true))
        // --force replaces the different file.
        var forced = ClashResolver(overwrite: true)
        #expect(forced.place(folder + "/A.JPG", size: 200, captured: captured) == (.overwrite(path: folder + "/A.JPG"), false))
    }

    @Test func theHashDecidesWhenTheTimeWasChanged() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = patternedBytes(5000, seed: 9)
        try write(folder + "/A.JPG", bytes, mtime: Date())
        // An entry of today (XXH3-128), and one recorded before (SHA-256): either recognizes the file.
        for known in [Checksum(.xxh128, hex: XXH128.hexDigest(of: bytes)), Checksum(.sha256, hex: CryptoDigest.hexDigest(.sha256, of: bytes))] {
            var resolver = ClashResolver()
            #expect(resolver.place(folder + "/A.JPG", size: 5000, captured: captured, knownHash: known).placement
                == .alreadyThere(path: folder + "/A.JPG"))
            var other = ClashResolver()
            let wrong = Checksum(known.algorithm, hex: String(repeating: "0", count: known.algorithm.hexLength))
            #expect(other.place(folder + "/A.JPG", size: 5000, captured: captured, knownHash: wrong).placement
                == .write(path: folder + "/A (2).JPG", partBytes: 0))
        }
    }

    /// A resolver reads each folder once (its first question there) instead of looking each name up: a
    /// file that appears in the folder afterwards is not seen, so its name can be given out, and it is
    /// still never replaced: the download's rename refuses (`DownloadError.exists`), the file untouched.
    @Test func aFileThatAppearsAfterItsFolderWasReadIsNeverReplaced() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(folder + "/A.JPG", patternedBytes(10, seed: 1), mtime: captured)
        var resolver = ClashResolver()
        #expect(resolver.place(folder + "/A.JPG", size: 20, captured: captured).placement == .write(path: folder + "/A (2).JPG", partBytes: 0))
        try write(folder + "/B.JPG", [7, 7], mtime: captured)
        try write(folder + "/B.JPG.part", patternedBytes(5, seed: 2), mtime: captured)
        let placed = resolver.place(folder + "/B.JPG", size: 20, captured: captured).placement
        #expect(placed == .write(path: folder + "/B.JPG", partBytes: 0))

        try write(folder + "/B.JPG.part", patternedBytes(20, seed: 3), mtime: captured)
        let part = CompletedPart(partPath: folder + "/B.JPG.part", destination: folder + "/B.JPG", size: 20, resumedFrom: 0, overwrite: false)
        #expect(throws: DownloadError.exists(path: folder + "/B.JPG")) { try part.commit() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/B.JPG")) == Data([7, 7]))
        // A new resolver reads the folder again, and finds both.
        var next = ClashResolver()
        #expect(next.place(folder + "/B.JPG", size: 20, captured: captured).placement == .write(path: folder + "/B (2).JPG", partBytes: 0))
    }

    @Test func aPartIsContinuedAndAFolderNeverReplaced() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(folder + "/V.MP4.part", patternedBytes(40, seed: 1), mtime: Date())
        try FileManager.default.createDirectory(atPath: folder + "/D.JPG", withIntermediateDirectories: true)
        var resolver = ClashResolver(overwrite: true)
        #expect(resolver.place(folder + "/V.MP4", size: 100, captured: nil).placement == .write(path: folder + "/V.MP4", partBytes: 40))
        #expect(resolver.place(folder + "/D.JPG", size: 100, captured: nil).placement == .write(path: folder + "/D (2).JPG", partBytes: 0))
        // A .part longer than the file is from something else: started over.
        var fresh = ClashResolver()
        #expect(fresh.place(folder + "/V.MP4", size: 10, captured: nil).placement == .write(path: folder + "/V.MP4", partBytes: 0))
    }
}
