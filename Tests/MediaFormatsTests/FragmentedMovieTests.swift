import MediaFormats
import Testing

/// Fragmented movies built box by box: an empty `moov` with `mvex`/`trex`, then `moof`+`mdat` pairs of
/// 5 samples of 100 bytes and 40 ms, each fragment starting with a keyframe.
@Suite("Fragmented MP4: moof/traf/tfhd/tfdt/trun, and the lies they can tell")
struct FragmentedMovieTests {
    typealias B = BoxBytes

    /// An init segment: ftyp and a moov whose only track has empty sample tables.
    static func initSegment() -> [UInt8] {
        var movie = SyntheticMovie()
        movie.stts = B.fullBox("stts", B.u32(0))
        movie.stsc = B.fullBox("stsc", B.u32(0))
        movie.stsz = B.fullBox("stsz", B.u32(0) + B.u32(0))
        movie.stco = B.fullBox("stco", B.u32(0))
        movie.stss = nil
        movie.mvhd = B.fullBox("mvhd", B.u32(1) + B.u32(2) + B.u32(600) + B.u32(0) + SyntheticMovie.movieHeaderTail)
        movie.mdhd = B.fullBox("mdhd", B.u32(1) + B.u32(2) + B.u32(1000) + B.u32(0) + B.u32(0))
        // trex: track 1, description 1, 40 ms, 100 bytes, not sync by default.
        movie.extraMovieChildren = B.box(
            "mvex", B.fullBox("trex", B.u32(1) + B.u32(1) + B.u32(40) + B.u32(100) + B.u32(0x1_0000)))
        return movie.ftyp + movie.moov(mediaDataOffset: 0)
    }

    /// One fragment: moof (tfhd default-base-is-moof, tfdt, trun with a data offset and a sync first
    /// sample) and its mdat.
    static func fragment(sequence: UInt32, decodeTime: UInt64, count: UInt32 = 5, trunFlags: UInt32 = 0x5) -> [UInt8] {
        func moof(dataOffset: Int32) -> [UInt8] {
            let tfhd = B.fullBox("tfhd", flags: 0x2_0000, B.u32(1))
            let tfdt = B.fullBox("tfdt", version: 1, B.u64(decodeTime))
            let trun = B.fullBox("trun", flags: trunFlags, B.u32(count) + B.i32(dataOffset) + B.u32(0))
            return B.box("moof", B.fullBox("mfhd", B.u32(sequence)) + B.box("traf", tfhd + tfdt + trun))
        }
        let size = moof(dataOffset: 0).count
        return moof(dataOffset: Int32(size + 8)) + B.box("mdat", [UInt8](repeating: 0xCD, count: 500))
    }

    @Test func samplesComeFromEveryFragment() throws {
        let bytes = Self.initSegment() + Self.fragment(sequence: 1, decodeTime: 0) + Self.fragment(sequence: 2, decodeTime: 200)
        let movie = try MovieReader().read(from: MemoryByteSource(bytes))
        let track = try #require(movie.videoTrack)
        #expect(movie.fragmentCount == 2 && !movie.isTruncated)
        #expect(track.sampleTable.count == 10)
        #expect(track.sampleTable.keyframeIndices == [0, 5])
        let timeline = try track.timeline.get()
        #expect(timeline.frames.map(\.time) == (0..<10).map { Int64($0) * 40 })
        #expect(timeline.durationSeconds == 0.4 && movie.durationSeconds == 0.4)
        #expect(track.frameRate == 25)
        // Data offsets: each sample's bytes sit inside its fragment's mdat.
        let second = Self.initSegment().count + Self.fragment(sequence: 1, decodeTime: 0).count
        let moofSize = Self.fragment(sequence: 2, decodeTime: 200).count - 508
        #expect(track.sampleTable.samples[5].offset == UInt64(second + moofSize + 8))
    }

    @Test func aFragmentCutOffByTheEndOfTheFileKeepsTheOnesBefore() throws {
        let whole = Self.initSegment() + Self.fragment(sequence: 1, decodeTime: 0) + Self.fragment(sequence: 2, decodeTime: 200)
        // Inside the second mdat (two of its samples whole), and inside the second moof.
        for (cut, frames) in [(whole.count - 250, 7), (whole.count - 520, 5)] {
            let movie = try MovieReader().read(from: MemoryByteSource(Array(whole.prefix(cut))))
            let timeline = try #require(try movie.videoTrack?.timeline.get())
            #expect(movie.isTruncated)
            #expect(timeline.frameCount == frames, "cut at \(cut): \(timeline.frameCount) frames")
        }
    }

    @Test func aRunClaimingFourBillionSamplesIsALimitNotAHang() {
        // No per-sample fields, so the count is not backed by bytes: the sample limit stops it.
        let bytes = Self.initSegment() + Self.fragment(sequence: 1, decodeTime: 0, count: .max)
        var limits = MovieReadLimits()
        limits.maxSamplesPerTrack = 10_000
        #expect(throws: MediaFormatError.self) { try MovieReader(limits: limits).read(from: MemoryByteSource(bytes)) }
    }

    @Test func aRunWhoseFieldsDoNotFitIsMalformed() {
        // Sizes per sample (0x200) for 1000 samples in a box of a few bytes.
        let bytes = Self.initSegment() + Self.fragment(sequence: 1, decodeTime: 0, count: 1000, trunFlags: 0x205)
        #expect(throws: MediaFormatError.self) { try MovieReader().read(from: MemoryByteSource(bytes)) }
    }

    @Test func dataBeforeTheStartOfTheFileIsMalformed() {
        var bytes = Self.initSegment() + Self.fragment(sequence: 1, decodeTime: 0)
        // Rewrite the trun's data offset (after its full-box header and count) to a large negative number.
        let trun = Array("trun".utf8)
        let at = (0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == trun }! + 4 + 4 + 4
        bytes.replaceSubrange(at..<at + 4, with: B.i32(-1_000_000))
        #expect(throws: MediaFormatError.self) { try MovieReader().read(from: MemoryByteSource(bytes)) }
    }
}
