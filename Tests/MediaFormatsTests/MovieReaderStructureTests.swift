import MediaFormats
import Testing

/// The variants of each box the reader must understand, on small synthetic movies.
@Suite("MovieReader box variants")
struct MovieReaderStructureTests {
    typealias B = BoxBytes

    func read(_ movie: SyntheticMovie) throws -> MovieInfo {
        try MovieReader().read(from: MemoryByteSource(movie.bytes()))
    }

    @Test func baselineSyntheticMovie() throws {
        let movie = SyntheticMovie()
        let info = try read(movie)
        #expect(info.majorBrand == "isom")
        #expect(info.compatibleBrands == ["isom", "avc1"])
        #expect(info.durationSeconds == 0.4)
        #expect(info.creationDate != nil)
        let video = try #require(info.videoTrack)
        #expect(video.id == 1 && video.codec == "avc1")
        #expect(video.codedWidth == 640 && video.codedHeight == 360)
        #expect(video.width == 640 && video.height == 360)
        let table = video.sampleTable
        #expect(table.count == 10)
        #expect(table.samples.map(\.decodeTime) == Array(stride(from: 0, to: 400, by: 40)))
        #expect(table.samples.map(\.presentationTime) == table.samples.map(\.decodeTime))
        #expect(table.keyframeIndices == [0, 5])
        #expect(table.frameRate == 25)
        // Two chunks of five 100-byte samples, back to back in mdat.
        let offsets = table.samples.map(\.offset)
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $1 == $0 + 100 })
        #expect(info.isFastStart)
    }

    @Test func moovAtEndGivesTheSameSamplesAtTheirOffsets() throws {
        let first = SyntheticMovie()
        var last = SyntheticMovie()
        last.moovAtEnd = true
        let bytes = last.bytes()
        let info = try MovieReader().read(from: MemoryByteSource(bytes))
        #expect(!info.isFastStart)
        let samples = try #require(info.videoTrack).sampleTable.samples
        #expect(samples.map(\.size) == (try read(first)).videoTrack?.sampleTable.samples.map(\.size))
        for sample in samples { #expect(bytes[Int(sample.offset)] == 0xAB) }
    }

    @Test func version1HeadersWith64BitFields() throws {
        let movie = SyntheticMovie(version1Headers: true)
        let info = try read(movie)
        #expect(info.durationSeconds == 0.4)
        #expect(info.videoTrack?.duration == 400)
        #expect(info.videoTrack?.id == 1)
    }

    @Test(arguments: [0, 90, 180, 270])
    func rotationFromTheTrackMatrix(degrees: Int) throws {
        let movie = SyntheticMovie(rotation: degrees)
        let video = try #require(try read(movie).videoTrack)
        #expect(video.rotation == degrees)
        #expect(video.orientation == (degrees % 180 == 0 ? .landscape : .portrait))
        #expect(video.displayWidth == (degrees % 180 == 0 ? 640 : 360))
    }

    @Test func largeSizeBoxesAndSizeZeroLastBox() throws {
        let movie = SyntheticMovie()
        let moov = movie.moov(mediaDataOffset: 0)
        // ftyp as a 64-bit box, moov, then an mdat with size 0 ("to the end of the file").
        let ftyp = B.largeBox("ftyp", B.fourCC("mp42") + B.u32(0))
        let file = ftyp + B.largeBox("free", [1, 2, 3]) + moov + B.u32(0) + B.fourCC("mdat") + [1, 2, 3, 4]
        let info = try MovieReader().read(from: MemoryByteSource(file))
        #expect(info.majorBrand == "mp42")
        #expect(info.videoTrack?.sampleTable.count == 10)
        #expect(info.movieBoxOffset == UInt64(ftyp.count + 19))
    }

    @Test func sixtyFourBitChunkOffsets() throws {
        var movie = SyntheticMovie()
        let base: UInt64 = 5 << 30
        movie.stco = B.fullBox("co64", B.u32(2) + B.u64(base) + B.u64(base + 500))
        movie.stsz = B.fullBox("stsz", B.u32(100) + B.u32(10))  // one size for all
        // The constant-size samples must fit in the file, so pretend it is 6 GiB.
        let bytes = movie.bytes()
        let source = SparseByteSource(length: 6 << 30, pieces: [(0, bytes)])
        let table = try #require(try MovieReader().read(from: source).videoTrack).sampleTable
        #expect(table.samples.map(\.offset) == (0..<10).map { base + UInt64($0) * 100 })
        #expect(table.samples.allSatisfy { $0.size == 100 })
    }

    @Test(arguments: [4, 8, 16] as [UInt8])
    func compactSampleSizes(fieldBits: UInt8) throws {
        var movie = SyntheticMovie()
        let sizes: [UInt32] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
        var packed: [UInt8] = []
        switch fieldBits {
        case 4: packed = stride(from: 0, to: 10, by: 2).map { UInt8(sizes[$0] << 4 | sizes[$0 + 1]) }
        case 8: packed = sizes.map { UInt8($0) }
        default: packed = sizes.flatMap { B.u16(UInt16($0)) }
        }
        movie.stsz = B.fullBox("stz2", [0, 0, 0, fieldBits] + B.u32(10) + packed)
        let table = try #require(try read(movie).videoTrack).sampleTable
        #expect(table.samples.map(\.size) == sizes)
    }

    @Test func compositionOffsetsAndEditListGivePresentationTimes() throws {
        var movie = SyntheticMovie()
        // Decode order I P B B ... : offsets +80, +120, 0, 0, ...; the edit starts media at 80.
        movie.ctts = B.fullBox("ctts", B.u32(3) + B.u32(1) + B.u32(80) + B.u32(1) + B.u32(120) + B.u32(8) + B.i32(-5))
        movie.edts = B.box("edts", B.fullBox("elst", B.u32(1) + B.u32(240) + B.i32(80) + B.u32(0x10000)))
        let table = try #require(try read(movie).videoTrack).sampleTable
        #expect(table.samples[0].compositionTime == 80)
        #expect(table.samples[0].presentationTime == 0)
        #expect(table.samples[1].presentationTime == 40 + 120 - 80)
        #expect(table.samples[2].presentationTime == 80 - 5 - 80)
    }

    @Test func emptyEditDelaysTheTrack() throws {
        var movie = SyntheticMovie()
        // Empty edit of 300 movie units (0.5 s at 600) then media from 0.
        movie.edts = B.box(
            "edts",
            B.fullBox(
                "elst", version: 1,
                B.u32(2) + B.u64(300) + B.u64(UInt64(bitPattern: -1)) + B.u32(0x10000) + B.u64(240) + B.u64(0)
                    + B.u32(0x10000)))
        let table = try #require(try read(movie).videoTrack).sampleTable
        #expect(table.samples[0].presentationTime == 500)
        #expect(table.keyframe(atOrBefore: 0.4) == nil)
        #expect(table.keyframe(atOrBefore: 0.5) == 0)
    }

    @Test func severalChunkRuns() throws {
        var movie = SyntheticMovie()
        // Chunks 1-2 hold 3 samples each, chunk 3 holds 4.
        movie.stsc = B.fullBox("stsc", B.u32(2) + B.u32(1) + B.u32(3) + B.u32(1) + B.u32(3) + B.u32(4) + B.u32(1))
        movie.stco = B.fullBox("stco", B.u32(3) + B.u32(10_000) + B.u32(20_000) + B.u32(30_000))
        let bytes = movie.bytes()
        let source = SparseByteSource(length: 40_000, pieces: [(0, bytes)])
        let offsets = try #require(try MovieReader().read(from: source).videoTrack).sampleTable.samples.map(\.offset)
        #expect(offsets == [10_000, 10_100, 10_200, 20_000, 20_100, 20_200, 30_000, 30_100, 30_200, 30_300])
    }

    @Test func noSyncSampleBoxMeansEverySampleIsAKeyframe() throws {
        var movie = SyntheticMovie()
        movie.stss = nil
        let table = try #require(try read(movie).videoTrack).sampleTable
        #expect(table.keyframeIndices == Array(0..<10))
    }

    @Test func audioAndOtherTracksAreClassifiedByHandler() throws {
        #expect(TrackKind(handlerForTest: "soun") == .audio)
        var movie = SyntheticMovie()
        movie.hdlr = B.fullBox("hdlr", B.fourCC("mhlr") + B.fourCC("tmcd") + [UInt8](repeating: 0, count: 13))
        let track = try #require(try read(movie).tracks.first)
        #expect(track.kind == .other("tmcd"))
        #expect(track.codedWidth == nil)
        #expect(try read(movie).videoTrack == nil)
    }
}

extension TrackKind {
    /// The kind a handler maps to, through a one-track movie.
    init(handlerForTest handler: String) {
        var movie = SyntheticMovie()
        movie.hdlr = BoxBytes.fullBox(
            "hdlr", BoxBytes.u32(0) + BoxBytes.fourCC(handler) + [UInt8](repeating: 0, count: 13))
        self = (try? MovieReader().read(from: MemoryByteSource(movie.bytes())).tracks.first?.kind) ?? .other("????")
    }
}
