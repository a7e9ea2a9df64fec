import Foundation
import MediaFormats
import TestSupport
import Testing

/// A DJI `.SRT` read cue by cue (issue 42: `status` shows the telemetry of the paused frame): the cue shown at
/// a moment, the exposure fields, gaps, and text that is no telemetry.
@Suite struct TelemetryTrackTests {
    static let srt = """
        1
        00:00:00,000 --> 00:00:00,033
        <font size="28">FrameCnt: 1, DiffTime: 33ms
        [iso: 100] [shutter: 1/640.0] [fnum: 1.7] [ev: 0] [latitude: 46.519653] [longitude: 6.632273] [rel_alt: 30.000 abs_alt: 402.000] </font>

        2
        00:00:00,033 --> 00:00:00,066
        [iso : 200] [shutter : 1/320.0] [fnum : 280] [ev: -0.7] [latitude: 0.000000] [longitude: 0.000000] [rel_alt: 31.000 abs_alt: 403.000]

        3
        00:00:01,000 --> 00:00:02,000
        GPS(113.1,22.1,120) BAROMETER:35.1
        """

    @Test func theCueShownAtAMoment() throws {
        let track = TelemetryTrack(srt: Array(Self.srt.utf8))
        #expect(track.cues.count == 3)
        let first = try #require(track.cue(at: 0.01))
        #expect(first.point == GeoPoint(latitude: 46.519653, longitude: 6.632273))
        #expect(first.relative == 30 && first.absolute == 402)
        #expect(first.iso == 100 && first.shutter == "1/640.0" && first.fnumber == 1.7 && first.exposureBias == 0)
        let second = try #require(track.cue(at: 0.05))
        #expect(second.point == nil, "0,0 is no fix")
        #expect(second.fnumber == 2.8 && second.iso == 200 && second.exposureBias == -0.7)
        #expect(track.cue(at: 0.5) == nil, "between cues")
        #expect(track.cue(at: 1.5)?.point == GeoPoint(latitude: 22.1, longitude: 113.1))
        #expect(track.cue(at: 1.5)?.absolute == 120 && track.cue(at: 1.5)?.relative == 35.1)
        #expect(track.cue(at: 2.0) == nil && track.cue(at: -1) == nil, "after the last, before the first")
    }

    @Test func cuesOutOfOrderAreSortedAndTextWithoutTimesGivesNone() {
        let swapped = TelemetryTrack(srt: Array("""
            2
            00:00:05,000 --> 00:00:06,000
            [rel_alt: 5.0 abs_alt: 6.0]

            1
            00:00:01,000 --> 00:00:02,000
            [rel_alt: 1.0 abs_alt: 2.0]
            """.utf8))
        #expect(swapped.cue(at: 1.5)?.relative == 1 && swapped.cue(at: 5.5)?.relative == 5)
        #expect(TelemetryTrack(srt: Array("[iso: 100]\n\nhello\n".utf8)).cues.isEmpty)
        #expect(TelemetryTrack(srt: []).cue(at: 0) == nil)
    }
}
