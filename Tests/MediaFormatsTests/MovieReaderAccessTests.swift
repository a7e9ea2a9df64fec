import MediaFormats
import TestSupport
import Testing

/// How much of a file the movie reader touches: a few reads around the movie box, never the media data.
@Suite("MovieReader reads little")
struct MovieReaderAccessTests {
    @Test(arguments: Fixtures.videos)
    func readsOnlyTheMovieBoxAndHeaders(name: String) throws {
        let counting = CountingByteSource(try Fixtures.source(name))
        let info = try MovieReader().read(from: counting)
        #expect(counting.readCount <= 3)
        // The movie box itself plus at most two 4 KiB header windows.
        #expect(counting.bytesRead <= info.movieBoxSize + 2 * 4096)
        #expect(counting.bytesRead < counting.length / 2)
    }

    @Test func readsUnderATenthOfTheLargestClip() throws {
        let counting = CountingByteSource(try Fixtures.source("landscape_faststart.mp4"))
        _ = try MovieReader().read(from: counting)
        #expect(counting.bytesRead * 10 < counting.length)
    }

    /// A 5 GiB recording whose mdat needs a 64-bit size and whose moov sits at the end: the reader jumps
    /// over the media data and reads a few kilobytes in all.
    @Test func hugeFileWithMovieBoxAtTheEnd() throws {
        let original = try Fixtures.bytes("portrait_moovend.mp4")
        let reference = try MovieReader().read(from: MemoryByteSource(original))
        let moov = Array(original[Int(reference.movieBoxOffset)...])
        let ftyp = Array(original[0..<Int(UInt32(original[3]) | UInt32(original[2]) << 8)])
        let mdatSize: UInt64 = 5 << 30
        let mdatHeader = BoxBytes.u32(1) + BoxBytes.fourCC("mdat") + BoxBytes.u64(mdatSize)
        let moovOffset = UInt64(ftyp.count) + mdatSize
        let source = CountingByteSource(
            SparseByteSource(
                length: moovOffset + UInt64(moov.count),
                pieces: [(0, ftyp), (UInt64(ftyp.count), mdatHeader), (moovOffset, moov)]))

        let info = try MovieReader().read(from: source)
        #expect(info.movieBoxOffset == moovOffset)
        #expect(!info.isFastStart)
        #expect(info.videoTrack?.sampleTable.samples == reference.videoTrack?.sampleTable.samples)
        #expect(info.videoTrack?.rotation == 90)
        #expect(source.readCount <= 3)
        #expect(source.bytesRead < 16 << 10)
    }
}
