@testable import MediaFormats
import Testing

/// The presentation timeline (ISO/IEC 14496-12 8.6.6) on synthetic movies: 10 samples of 40 ms (media
/// timescale 1000, movie timescale 600), keyframes at samples 0 and 5, 100 bytes each.
@Suite("Track timelines from edit lists and file length")
struct TrackTimelineTests {
    typealias B = BoxBytes

    private func timeline(edits: [(duration: UInt32, mediaTime: Int32, rate: UInt32)]?, cutAt: Int? = nil) throws
        -> Result<TrackTimeline, MediaFormatError>
    {
        var movie = SyntheticMovie()
        if let edits {
            let entries = edits.flatMap { B.u32($0.duration) + B.i32($0.mediaTime) + B.u32($0.rate) }
            movie.edts = B.box("edts", B.fullBox("elst", B.u32(UInt32(edits.count)) + entries))
        }
        var bytes = movie.bytes()
        if let cutAt { bytes = Array(bytes.prefix(cutAt)) }
        return try #require(try MovieReader().read(from: MemoryByteSource(bytes)).videoTrack).timeline
    }

    private func times(_ timeline: TrackTimeline) -> [Int64] { timeline.frames.map(\.time) }

    @Test func anEmptyEditDelaysAndALaterEditSkips() throws {
        // 0.5 s of nothing, then 0.2 s showing media from 200 ms: samples 5...9.
        let result = try timeline(edits: [(300, -1, 0x10000), (120, 200, 0x10000)]).get()
        #expect(result.frames.map(\.sample) == [5, 6, 7, 8, 9])
        #expect(times(result) == [500, 540, 580, 620, 660])
        #expect(result.keyframes == [0])
        #expect(result.durationSeconds == 0.7)
        #expect(result.leadIn == nil)
    }

    @Test func anEditShownTwiceGivesTwiceTheFrames() throws {
        let result = try timeline(edits: [(120, 0, 0x10000), (120, 0, 0x10000)]).get()
        #expect(result.frames.map(\.sample) == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
        #expect(times(result) == [0, 40, 80, 120, 160, 200, 240, 280, 320, 360])
        #expect(result.keyframes == [0, 5])
        #expect(result.durationSeconds == 0.4)
    }

    @Test func anEditIntoMidGOPDecodesFromAHiddenKeyframe() throws {
        let result = try timeline(edits: [(192, 80, 0x10000)]).get()  // 0.32 s from media 80 ms
        #expect(result.frames.first == .init(sample: 2, time: 0))
        #expect(result.frameCount == 8)
        #expect(result.keyframes == [3])  // sample 5, shown at 120 ms
        #expect(result.leadIn == .init(keyframeSample: 0, hiddenSamples: 2, secondsBefore: 0.08))
    }

    @Test func aSampleStartingAtTheEditsEndIsNotShown() throws {
        let result = try timeline(edits: [(216, 0, 0x10000)]).get()  // 360 ms: sample 9 starts there
        #expect(result.frameCount == 9)
        #expect(result.durationSeconds == 0.36)
    }

    @Test func otherRatesAreRefusedClearlyWhileTheMovieStillReads() throws {
        for rate: UInt32 in [0, 0x8000, 0x20000] {
            let result = try timeline(edits: [(240, 0, rate)])
            guard case .failure(let error) = result else {
                Issue.record("rate \(rate) was accepted")
                continue
            }
            #expect(error.problem == .editRate(track: "track 1", rate: Int32(bitPattern: rate)), "\(error.problem)")
        }
    }

    @Test func withoutAnEditListEverySampleShowsFromTheFirst() throws {
        let result = try timeline(edits: nil).get()
        #expect(result.frameCount == 10 && result.frames.first?.time == 0)
        #expect(result.durationSeconds == 0.4 && result.truncation == nil)
    }

    @Test func framesWhoseBytesAreMissingAreNotOffered() throws {
        let whole = SyntheticMovie().bytes()
        // Cut in the middle of sample 7 (the mdat's 1000 bytes are the last of the file).
        let cut = whole.count - 1000 + 7 * 100 + 50
        let result = try timeline(edits: nil, cutAt: cut).get()
        #expect(result.frameCount == 7)
        #expect(result.truncation == .init(declaredSamples: 10, completeSamples: 7, declaredDuration: 0.4))
        #expect(result.durationSeconds == 0.28)
        let movie = try MovieReader().read(from: MemoryByteSource(Array(whole.prefix(cut))))
        #expect(movie.isTruncated && movie.durationSeconds == 0.28)
    }
}
