import Foundation
import MediaFormats
import MediaManager
import TestSupport
import Testing

@testable import Playback

/// Issue 42's clip as a user met it: 60 s at 25 fps, 320x240, a keyframe every 10 s (so every keyframe seek
/// between two keyframes lands up to 10 s early), in a folder removed afterwards.
final class SparseKeyframeClip: Sendable {
    let folder: TemporaryFolder
    let path: String
    let probe: ProbedFrames

    init() throws {
        folder = try TemporaryFolder()
        path = folder.path + "/DJI_0006.MP4"
        let ffmpeg = try #require(ExternalTool.ffmpeg)
        try ffmpeg.run([
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=duration=60:size=320x240:rate=25",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "250", "-keyint_min", "250", "-sc_threshold", "0",
            "-pix_fmt", "yuv420p", path,
        ])
        probe = try ProbedFrames(path: path)
    }

    func media() throws -> PlaybackMedia {
        try PlaybackMedia.read(name: "DJI_0006.MP4", from: FileByteSource(path: path))
    }
}

/// Issue 42: `seek POS` lands on the frame shown at POS (the last one whose time is at or before it, as
/// ffprobe's frame times say), not on the keyframe before it; relative seeks move from where it is.
@Suite(
    "Exact seeks against ffprobe's frame times",
    .enabled(if: ExternalTool.ffmpeg != nil && ExternalTool.ffprobe != nil, "needs ffmpeg and ffprobe"), .tags(.process), .notInFastRun)
struct ExactSeekTests {
    static let frame = 1.0 / 25

    @Test func aSeekLandsOnTheFrameShownAtThatTime() throws {
        let clip = try SparseKeyframeClip()
        let probe = clip.probe
        try #require(probe.frameTimes.count == 1500 && probe.keyframeTimes == [0, 10, 20, 30, 40, 50])
        let controller = PlaybackController(clock: ManualClock(), player: .none)
        defer { controller.shutdown() }
        try controller.play(try clip.media())
        try controller.pause()

        var random = SeededRandom(test: "exact seeks on the 60 s clip")
        let chosen = [0, 0.01, 0.04, 0.039, 9.99, 12.5, 19.99, 20, 25.5, 25.48, 25.479, 33.3333, 47.123, 59.95, 59.96, 60]
        let drawn = (0..<60).map { _ in Double(random.next() % 600_000) / 10_000 }
        var farthest = 0.0
        for target in chosen + drawn {
            let outcome = try controller.seek(.absolute(seconds: target))
            let expected = probe.frame(at: target)
            let status = try #require(controller.status())
            #expect(status.frameIndex == expected, "seek \(target): frame \(status.frameIndex), ffprobe shows \(expected)")
            #expect(abs(outcome.landed - probe.frameTimes[expected]) < 0.001, "seek \(target) landed at \(outcome.landed)")
            #expect(abs(status.position - probe.frameTimes[expected]) < 0.001, "seek \(target): status at \(status.position)")
            let short = target - outcome.landed
            #expect(short > -0.001 && short < Self.frame, "seek \(target) landed \(short) s before it")
            farthest = max(farthest, abs(short))
        }
        print("exact seeks on the 60 s clip: \(chosen.count + drawn.count) seeks, farthest \(farthest) s from the time asked")
    }

    @Test func threeSeeksOfPlusFiveFromTwentyLandAtTwentyFiveThirtyAndThirtyFive() throws {
        let clip = try SparseKeyframeClip()
        let controller = PlaybackController(clock: ManualClock(), player: .none)
        defer { controller.shutdown() }
        try controller.play(try clip.media())
        try controller.pause()
        #expect(try controller.seek(.absolute(seconds: 20)).landed == 20)
        for expected in [25.0, 30, 35] {
            let outcome = try controller.seek(.relative(seconds: 5))
            #expect(abs(outcome.landed - expected) < 0.001, "seek +5 landed at \(outcome.landed), expected \(expected)")
            let status = try #require(controller.status())
            #expect(status.frameIndex == Int(expected * 25) && abs(status.position - expected) < 0.001)
        }
        // `seek 0:25.5` shows the frame on screen at 25.5 s: frame 637 at 25.48 s.
        let outcome = try controller.seek(.absolute(seconds: 25.5))
        #expect(abs(outcome.landed - 25.48) < 0.001 && controller.status()?.frameIndex == 637)
        let back = try controller.seek(.relative(seconds: -0.5))
        #expect(abs(back.landed - 24.96) < 0.001, "seek -0.5 from 25.48 landed at \(back.landed)")
    }
}
