import Foundation
import MediaManager
import TestSupport
import Testing

@testable import MediaFormats

/// A photo's EXIF place, altitude, exposure, lens and camera (`ExifDetails`) and its every tag, read from
/// the file's first bytes, against exiftool on a corpus exiftool wrote (issue 42).
@Suite("ExifDetails", .enabled(if: ExternalTool.exiftool != nil, "needs exiftool"), .tags(.process), .notInFastRun)
struct ExifDetailsTests {
    /// Each tag set of the oracle's corpus in a copy of each demo photo.
    static func corpus(in folder: TemporaryFolder) throws -> [String] {
        var paths: [String] = []
        for (set, assignments) in ExifToolOracle.corpus.enumerated() {
            for photo in Fixtures.photos {
                let path = folder.path("\(set)-\(photo)")
                try ExifToolOracle.write(assignments, copying: Fixtures.path(photo), to: path)
                paths.append(path)
            }
        }
        return paths
    }

    /// `details` say what exiftool says of the file at `path`, field by field; absent where it has none.
    static func expectSame(_ details: ExifDetails, asExiftoolSaysOf path: String) throws {
        let theirs = try ExifToolOracle.values(path)
        let numbers: [(Double?, String)] = [
            (details.latitude, "Composite:GPSLatitude"), (details.longitude, "Composite:GPSLongitude"),
            (details.altitude, "GPS:GPSAltitude"), (details.exposureTime?.value, "ExifIFD:ExposureTime"),
            (details.fNumber, "ExifIFD:FNumber"), (details.iso.map(Double.init), "ExifIFD:ISO"),
            (details.exposureBias, "ExifIFD:ExposureCompensation"), (details.focalLength, "ExifIFD:FocalLength"),
            (details.focalLength35.map(Double.init), "ExifIFD:FocalLengthIn35mmFormat"),
        ]
        for (ours, key) in numbers {
            let expected = (theirs[key] as? NSNumber)?.doubleValue
            #expect((ours == nil) == (expected == nil), "\(path) \(key): \(String(describing: ours)) vs \(String(describing: expected))")
            if let ours, let expected { #expect(abs(ours - expected) <= 1e-9 * max(1, abs(expected)), "\(path) \(key)") }
        }
        let texts: [(String?, String)] = [
            (details.lensMake, "ExifIFD:LensMake"), (details.lensModel, "ExifIFD:LensModel"), (details.make, "IFD0:Make"),
            (details.model, "IFD0:Model"), (details.serialNumber, "ExifIFD:SerialNumber"),
        ]
        for (ours, key) in texts { #expect(ours == theirs[key] as? String, "\(path) \(key)") }
        if let reference = theirs["GPS:GPSAltitudeRef"] as? Int {
            #expect(details.altitudeReference == (reference == 1 ? .belowSeaLevel : .aboveSeaLevel), "\(path)")
        }
    }

    @Test func detailsEqualExiftoolsOnItsCorpus() throws {
        let folder = try TemporaryFolder("msh-exif-corpus")
        for path in try Self.corpus(in: folder) {
            let source = CountingByteSource(try FileByteSource(path: path))
            let exif = try #require(try JPEGReader().read(from: source).exif, "\(path)")
            try Self.expectSame(ExifDetails(tags: exif.tags), asExiftoolSaysOf: path)
            // The header only: one 16 KiB read, never the picture.
            #expect(source.readCount == 1 && source.bytesRead <= 16 << 10, "\(path): \(source.bytesRead) bytes")
        }
    }

    @Test func everyTagIsNamedAndValuedAsExiftoolDoes() throws {
        let folder = try TemporaryFolder("msh-exif-tags")
        for path in try Self.corpus(in: folder) {
            let theirs = try ExifToolOracle.values(path)
            let tags = try #require(try JPEGReader().read(from: FileByteSource(path: path)).exif?.tags)
            for tag in tags {
                let name = try #require(tag.name, "\(path): tag \(tag.id) has no name")
                let key = "\(tag.directory.rawValue):\(name)"
                let theirValue = try #require(theirs[key], "\(path): exiftool has no \(key)")
                let ours: [Double?] = tag.converted.map { [$0] } ?? tag.value.numbers
                if let text = tag.value.text {
                    #expect(text == "\(theirValue)", "\(path) \(key)")
                } else if !ours.isEmpty {
                    let expected = "\(theirValue)".split(separator: " ").map { Double($0) }
                    #expect(ours.count == expected.count, "\(path) \(key)")
                    for (a, b) in zip(ours, expected) {
                        #expect(abs((a ?? .nan) - (b ?? .nan)) <= 1e-6 * max(1, abs(b ?? 1)), "\(path) \(key): \(ours) vs \(theirValue)")
                    }
                }
            }
        }
    }

    /// A TIFF-based raw file (a DNG here): its tags from one read of its first bytes.
    @Test func aTIFFBasedRawFileFromItsFirstBytes() throws {
        let folder = try TemporaryFolder("msh-exif-raw")
        let bare = folder.path("bare.dng")
        try writeFile(bare, Self.minimalTIFF(pixels: 64 << 10))
        let path = folder.path("tagged.dng")
        try ExifToolOracle.write(ExifToolOracle.corpus[0] + ["-Make=DJI", "-Model=FC3582"], copying: bare, to: path)
        let source = CountingByteSource(try FileByteSource(path: path))
        let tags = try ExifReader().tags(from: source)
        try Self.expectSame(ExifDetails(tags: tags), asExiftoolSaysOf: path)
        #expect(source.readCount == 1 && source.bytesRead == min(source.length, UInt64(ExifReader().tiffHead)))

        // A head too short for the Exif and GPS directories gives what it holds, and no error.
        var short = ExifReader()
        short.tiffHead = 200
        let partial = try short.tags(from: FileByteSource(path: path))
        #expect(partial.allSatisfy { $0.directory == .ifd0 } && partial.contains { $0.id == 0x010F })
    }

    /// A little-endian TIFF of `pixels` grey pixels in one strip, its make "DJI".
    static func minimalTIFF(pixels: Int) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        let entries: [(Int, Int, Int, [UInt8])] = [
            (0x100, 3, 1, u16(pixels / 256) + [0, 0]), (0x101, 3, 1, u16(256) + [0, 0]), (0x102, 3, 1, u16(8) + [0, 0]),
            (0x103, 3, 1, u16(1) + [0, 0]), (0x106, 3, 1, u16(1) + [0, 0]), (0x10F, 2, 4, Array("DJI".utf8) + [0]),
            (0x111, 4, 1, []), (0x115, 3, 1, u16(1) + [0, 0]), (0x116, 3, 1, u16(256) + [0, 0]), (0x117, 4, 1, u32(pixels)),
        ]
        let dataStart = 8 + 2 + 12 * entries.count + 4
        var bytes = Array("II".utf8) + u16(42) + u32(8) + u16(entries.count)
        for (tag, type, count, value) in entries {
            bytes += u16(tag) + u16(type) + u32(count) + (tag == 0x111 ? u32(dataStart) : value)
        }
        return bytes + u32(0) + [UInt8](repeating: 0x80, count: pixels)
    }
}
