import MediaFormats
import Testing

/// Seeking lookups on sample tables: which frame shows at a time, and which keyframe to decode from.
@Suite("SampleTable lookups")
struct SampleTableTests {
    /// 30 fps, B-frames, keyframes at 0, 1 and 2 s.
    let table: SampleTable

    init() throws {
        table = try #require(try MovieReader().read(from: Fixtures.source("landscape_faststart.mp4")).videoTrack)
            .sampleTable
    }

    @Test func sampleShownAtATimeIsTheLastOneStartedByThen() throws {
        for step in 0..<90 * 4 {
            let time = Double(step) / 120
            let index = try #require(table.sampleIndex(at: time))
            let shown = table.presentationSeconds(ofSample: index)
            #expect(shown <= time + 1e-9)
            #expect(time - shown < 1.0 / 30 + 1e-9, "at \(time) s the frame from \(shown) s is too old")
        }
        // With B-frames the frame shown second is not the second decoded.
        let second = try #require(table.sampleIndex(at: 1.0 / 30))
        #expect(second != 1)
        #expect(abs(table.presentationSeconds(ofSample: second) - 1.0 / 30) < 1e-6)
    }

    @Test func timesOutsideTheClipClampToItsEnds() throws {
        #expect(table.sampleIndex(at: -5) == table.presentationOrder.first)
        #expect(table.sampleIndex(at: 1e9) == table.presentationOrder.last)
        #expect(table.sampleIndex(at: .nan) == nil)
    }

    @Test func keyframeLookups() throws {
        func time(_ index: Int?) -> Double? { index.map { table.presentationSeconds(ofSample: $0) } }
        #expect(time(table.keyframe(atOrBefore: 0)) == 0)
        #expect(time(table.keyframe(atOrBefore: 0.99)) == 0)
        #expect(time(table.keyframe(atOrBefore: 1.0)) == 1)
        #expect(time(table.keyframe(atOrBefore: 1.5)) == 1)
        #expect(time(table.keyframe(atOrBefore: 99)) == 2)
        #expect(table.keyframe(atOrBefore: -0.1) == nil)
        #expect(time(table.keyframe(atOrAfter: -3)) == 0)
        #expect(time(table.keyframe(atOrAfter: 1.0)) == 1)
        #expect(time(table.keyframe(atOrAfter: 1.01)) == 2)
        #expect(table.keyframe(atOrAfter: 2.5) == nil)
        for index in table.keyframeIndices { #expect(table.samples[index].isKeyframe) }
    }

    @Test func rates() {
        #expect(table.count == 90)
        #expect(abs(table.durationSeconds - 3) < 1e-9)
        #expect(table.frameRate == 30)
        #expect(table.nominalFrameRate == 30)
        #expect(table.timescale == 15360)
    }

    @Test func presentationOrderIsSortedAndComplete() {
        let times = table.presentationOrder.map { table.samples[$0].presentationTime }
        #expect(times == times.sorted())
        #expect(Set(table.presentationOrder) == Set(0..<table.count))
    }

    @Test func emptyTableAnswersNil() {
        let empty = SampleTable(timescale: 1000, samples: [], duration: 0, typicalSampleDuration: 0)
        #expect(empty.sampleIndex(at: 1) == nil)
        #expect(empty.keyframe(atOrBefore: 1) == nil)
        #expect(empty.keyframe(atOrAfter: 0) == nil)
        #expect(empty.frameRate == nil)
        #expect(empty.nominalFrameRate == nil)
    }
}
