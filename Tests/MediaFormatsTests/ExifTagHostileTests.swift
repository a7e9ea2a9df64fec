import TestSupport
import Testing

@testable import MediaFormats

/// Every EXIF tag of a hostile block (`ExifTagWalk`): a lying count or offset leaves that tag or directory
/// out, never crashes or allocates by the lie; loops end; the values decoded are bounded.
@Suite("EXIF tags on hostile input")
struct ExifTagHostileTests {
    let builder = TIFFBuilder(bigEndian: false)

    func tags(_ tiff: [UInt8]) throws -> [ExifTag] {
        ExifTagWalk(try TIFFBlock(tiff, fileOffset: 0)).tags()
    }

    func rational(_ tag: UInt16, count: UInt32, at offset: UInt32) -> TIFFBuilder.Entry {
        TIFFBuilder.Entry(tag: tag, type: 5, count: count, value: builder.u32(offset))
    }

    @Test func aLyingCountOrOffsetLeavesOnlyThatTagOut() throws {
        let tiff = builder.build(
            ifd0: [builder.ascii(0x010F, "DJI"), rational(0x011A, count: 0x7FFF_FFFF, at: 8), rational(0x011B, count: 1, at: 0xFFFF_FFF0)],
            exif: [builder.ascii(0xA434, "Lens"), TIFFBuilder.Entry(tag: 0x829A, type: 99, count: 1, value: [1, 0, 0, 0])])
        let found = try tags(tiff)
        #expect(found.map(\.id) == [0x010F, 0xA434])
        #expect(found.first?.value == .text("DJI"))
    }

    @Test func pointersThatLoopAreFollowedOnce() throws {
        // IFD0 (at 8) points its Exif, GPS and interoperability directories, and its next IFD, back at itself.
        var bytes = Array("II".utf8) + builder.u16(42) + builder.u32(8)
        let entries: [(UInt16, UInt32)] = [(0x8769, 8), (0x8825, 8), (0xA005, 8), (0x0112, 1)]
        bytes += builder.u16(UInt16(entries.count))
        for (tag, value) in entries { bytes += builder.u16(tag) + builder.u16(4) + builder.u32(1) + builder.u32(value) }
        bytes += builder.u32(8)
        let found = try tags(bytes)
        #expect(found.count == 1 && found[0].id == 0x0112 && found[0].directory == .ifd0)
    }

    @Test func valuesDecodedAreBounded() throws {
        // 2,000 entries that all name the same 4,000 characters: 8 MB of text if each were decoded.
        let shared = 8 + 2 + 12 * 2000 + 4
        var bytes = Array("II".utf8) + builder.u16(42) + builder.u32(8) + builder.u16(2000)
        for index in 0..<2000 { bytes += builder.u16(UInt16(0x9000 + index)) + builder.u16(2) + builder.u32(4000) + builder.u32(UInt32(shared)) }
        bytes += builder.u32(0) + [UInt8](repeating: UInt8(ascii: "A"), count: 4000)
        let walk = ExifTagWalk(try TIFFBlock(bytes, fileOffset: 0))
        let found = walk.tags()
        #expect(found.count == 2000)
        let decoded = found.filter { $0.value.text != nil }.count
        #expect(decoded > 0 && decoded * 4000 <= walk.decodedBudget)
        #expect(found.filter { $0.value == .binary(byteCount: 4000) }.count == 2000 - decoded)
    }

    @Test func aBlockCutAnywhereGivesSomeOfItsTags() throws {
        let tiff = builder.build(
            ifd0: [builder.ascii(0x010F, "DJI"), builder.ascii(0x0110, "FC3582"), builder.short(0x0112, 6)],
            exif: [builder.ascii(0x9003, "2024:05:01 10:12:03"), rational(0x829A, count: 1, at: 0), builder.ascii(0xA434, "24 mm")],
            ifd1: [builder.short(0x0103, 6)], thumbnail: [0xFF, 0xD8, 0xFF, 0xD9])
        let whole = try tags(tiff)
        #expect(whole.count >= 7)
        for cut in 8..<tiff.count {
            guard let block = try? TIFFBlock(Array(tiff.prefix(cut)), fileOffset: 0) else { continue }
            for tag in ExifTagWalk(block).tags() {
                #expect(whole.contains(tag), "cut at \(cut): \(tag)")
            }
        }
    }

    @Test func randomDamageNeverCrashes() throws {
        var random = SeededRandom(test: "ExifTagHostileTests.randomDamageNeverCrashes")
        let tiff = builder.build(
            ifd0: [builder.ascii(0x010F, "DJI"), builder.short(0x0112, 1), builder.long(0x8825, 0)],
            exif: [builder.ascii(0x9003, "2024:05:01 10:12:03"), rational(0x829D, count: 2, at: 0)])
        for _ in 0..<3000 {
            var damaged = tiff
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                damaged[Int.random(in: 8..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if let block = try? TIFFBlock(damaged, fileOffset: 0) {
                let found = ExifTagWalk(block).tags()
                #expect(found.count <= 64, "\(random)")
                _ = ExifDetails(tags: found)
            }
        }
    }

    @Test func gpsDegreesThatAreNoPlaceAreLeftOut() {
        func gps(_ latitude: [ExifRational]) -> ExifDetails {
            ExifDetails(tags: [
                ExifTag(directory: .gps, id: 0x01, value: .text("N")), ExifTag(directory: .gps, id: 0x02, value: .rational(latitude)),
                ExifTag(directory: .gps, id: 0x03, value: .text("E")),
                ExifTag(directory: .gps, id: 0x04, value: .rational([ExifRational(6, 1)])),
            ])
        }
        #expect(gps([ExifRational(46, 1), ExifRational(30, 1), ExifRational(0, 1)]).latitude == 46.5)
        #expect(gps([ExifRational(46, 0), ExifRational(30, 1), ExifRational(0, 1)]).latitude == nil)
        #expect(gps([ExifRational(91, 1)]).latitude == nil)
        #expect(gps([ExifRational(-5, 1)]).latitude == nil)
        #expect(gps([]).latitude == nil)
        #expect(gps([ExifRational(1, 1), ExifRational(1, 1), ExifRational(1, 1), ExifRational(1, 1)]).latitude == nil)
    }
}
