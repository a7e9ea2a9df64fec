import MediaFormats
import TestSupport
import Testing

/// Hostile JPEG headers and EXIF blocks: each ends in a `MediaFormatError`, never a crash or a huge read.
@Suite("JPEGReader on hostile input")
struct JPEGReaderHostileTests {
    func read(_ bytes: [UInt8], limits: JPEGReadLimits = JPEGReadLimits()) throws -> JPEGInfo {
        try JPEGReader(limits: limits).read(from: MemoryByteSource(bytes))
    }

    /// The offset just past the SOF segment: from there on a cut file still has a complete header.
    func headerEnd(_ bytes: [UInt8]) -> Int {
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            offset += 2 + length
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return offset }
        }
        return offset
    }

    @Test(arguments: Fixtures.photos)
    func truncatedAtEveryByteOfTheHeader(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let whole = try read(bytes)
        let end = headerEnd(bytes)
        for cut in 0..<min(bytes.count, end + 64) {
            let prefix = Array(bytes[0..<cut])
            if cut >= end {
                let info = try read(prefix)
                #expect(info.width == whole.width && info.exif?.thumbnail == whole.exif?.thumbnail)
            } else {
                expectFormatError { try read(prefix) }
            }
        }
    }

    @Test func notAJPEG() {
        expectFormatError(.malformed) { try read([]) }
        expectFormatError(.malformed) { try read([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }
        expectFormatError(.malformed) { try read([0xFF, 0xD8, 0xFF]) }
    }

    @Test func segmentLengthsThatLie() {
        for length: UInt16 in [0, 1] {
            let file = [0xFF, 0xD8, 0xFF, 0xE0] + BoxBytes.u16(length) + [UInt8](repeating: 0, count: 32)
            expectFormatError(.malformed) { try read(file) }
        }
        let long = [0xFF, 0xD8, 0xFF, 0xE1] + BoxBytes.u16(0xFFFF) + Array("Exif".utf8) + [0, 0, 0x49, 0x49]
        expectFormatError(.truncated) { try read(long) }
    }

    @Test func structureErrors() {
        // Image data (SOS) or end of image before any frame header.
        expectFormatError(.malformed) { try read([0xFF, 0xD8] + SyntheticJPEG.segment(0xDA, [1, 2, 3])) }
        expectFormatError(.malformed) { try read([0xFF, 0xD8, 0xFF, 0xD9, 0, 0]) }
        // A second SOI, and junk where a marker belongs.
        expectFormatError(.malformed) { try read([0xFF, 0xD8, 0xFF, 0xD8, 0, 0]) }
        expectFormatError(.malformed) { try read([0xFF, 0xD8, 0x00, 0x11, 0x22, 0x33]) }
        // A frame header too short for its fields, and one with width 0.
        expectFormatError(.truncated) { try read([0xFF, 0xD8] + SyntheticJPEG.segment(0xC0, [8, 0])) }
        expectFormatError(.malformed) { try read([0xFF, 0xD8] + SyntheticJPEG.frameHeader(width: 0, height: 10)) }
    }

    @Test func tooManySegmentsOrFillBytes() {
        let comments = (0..<2000).flatMap { _ in SyntheticJPEG.segment(0xFE, [0x41]) }
        expectFormatError(.limitExceeded) { try read([0xFF, 0xD8] + comments + SyntheticJPEG.frameHeader(width: 1, height: 1)) }
        var limits = JPEGReadLimits()
        limits.maxHeaderBytes = 1000
        let fill = [0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 5000)
        expectFormatError(.limitExceeded) { try read(fill, limits: limits) }
        let padding = SyntheticJPEG.segment(0xE2, [UInt8](repeating: 0, count: 2000))
        expectFormatError(.limitExceeded) {
            try read([0xFF, 0xD8] + padding + SyntheticJPEG.frameHeader(width: 1, height: 1), limits: limits)
        }
    }

    @Test func exifHeaderErrors() {
        func jpeg(_ tiff: [UInt8]) -> [UInt8] { SyntheticJPEG.file(exif: tiff) }
        let errors = [
            expectFormatError(.malformed) { try read(jpeg(Array("XX".utf8) + [0, 42, 0, 0, 0, 8])) },
            expectFormatError(.malformed) { try read(jpeg(Array("II".utf8) + [43, 0, 8, 0, 0, 0])) },
            expectFormatError(.malformed) { try read(jpeg(Array("MM".utf8) + [0, 42, 0xFF, 0, 0, 0])) },
            expectFormatError(.malformed) { try read(jpeg(Array("MM".utf8) + [0, 42, 0, 0, 0, 2])) },
            expectFormatError(.truncated) { try read(jpeg(Array("MM".utf8) + [0])) },
        ]
        for error in errors {
            let exif = if case .exif? = error?.problem { true } else { false }
            #expect(exif || error?.kind == .truncated, "\(String(reflecting: error))")
        }
    }

    @Test func ifdEntryCountLargerThanTheBlock() {
        let tiff = TIFFBuilder(bigEndian: false)
        var block = tiff.build(ifd0: [tiff.ascii(0x010F, "DJI")])
        block.replaceSubrange(8..<10, with: tiff.u16(0xFFFF))
        let error = expectFormatError(.malformed) { try read(SyntheticJPEG.file(exif: block)) }
        guard case .countExceedsRoom(_, count: 65535, _, _)? = error?.problem else {
            Issue.record("\(String(reflecting: error))")
            return
        }
    }

    @Test func ifdLoops() {
        let tiff = TIFFBuilder(bigEndian: true)
        // IFD0's next pointer (IFD1) points back at IFD0.
        var block = tiff.build(ifd0: [tiff.short(0x0112, 1)])
        block.replaceSubrange(8 + 2 + 12..<8 + 2 + 12 + 4, with: tiff.u32(8))
        #expect(expectFormatError(.malformed) { try read(SyntheticJPEG.file(exif: block)) }?.problem == .exif(.pointsBackAtIFD0(ifd: "IFD1")))
        // The Exif sub-IFD pointer points at IFD0.
        let loop = tiff.build(ifd0: [tiff.long(0x8769, 8)])
        expectFormatError(.malformed) { try read(SyntheticJPEG.file(exif: loop)) }
    }

    @Test func valuesAndThumbnailsOutsideTheBlock() {
        let tiff = TIFFBuilder(bigEndian: false)
        // A thumbnail longer than the EXIF block.
        var block = tiff.build(ifd0: [], ifd1: [tiff.long(0x0201, 8), tiff.long(0x0202, 0xFFFF_FFFF)])
        expectFormatError(.malformed) { try read(SyntheticJPEG.file(exif: block)) }
        block = tiff.build(ifd0: [], ifd1: [tiff.long(0x0201, 0xFFFF_FFF0), tiff.long(0x0202, 0x100)])
        expectFormatError(.malformed) { try read(SyntheticJPEG.file(exif: block)) }
        block = tiff.build(ifd0: [], ifd1: [tiff.long(0x0201, 8), tiff.long(0x0202, 0)])
        expectFormatError(.malformed) { try read(SyntheticJPEG.file(exif: block)) }
        // A Make string whose value offset points far outside.
        let make = TIFFBuilder.Entry(tag: 0x010F, type: 2, count: 4000, value: tiff.u32(0x7FFF_FFFF))
        block = tiff.build(ifd0: [make])
        expectFormatError(.malformed) { try read(SyntheticJPEG.file(exif: block)) }
        // A Make with a count so large the size overflows 32 bits.
        let huge = TIFFBuilder.Entry(tag: 0x010F, type: 12, count: 0xFFFF_FFFF, value: tiff.u32(8))
        block = tiff.build(ifd0: [huge])
        #expect(throws: Never.self) { try read(SyntheticJPEG.file(exif: block)) }  // not text, so not read
        // The Exif pointer outside the block.
        block = tiff.build(ifd0: [tiff.long(0x8769, 0x7000_0000)])
        expectFormatError(.malformed) { try read(SyntheticJPEG.file(exif: block)) }
    }

    @Test(arguments: Fixtures.photos)
    func randomByteFlipsInTheHeader(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let end = headerEnd(bytes)
        var random = SeededRandom(test: "JPEG header flips \(name)")
        for round in 0..<400 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                damaged[Int.random(in: 0..<end, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            expectTotal("\(name) round \(round), \(random)") { try read(damaged) }
        }
    }

    @Test func randomGarbageAfterAStartOfImage() {
        var random = SeededRandom(test: "JPEG garbage after SOI")
        for round in 0..<300 {
            let count = Int.random(in: 0..<4096, using: &random)
            var bytes: [UInt8] = [0xFF, 0xD8]
            for _ in 0..<count {
                // Bias toward 0xFF so markers and fill bytes are common.
                bytes.append(Bool.random(using: &random) ? 0xFF : UInt8.random(in: 0...255, using: &random))
            }
            expectTotal("garbage round \(round), \(random)") { try read(bytes) }
        }
    }
}
