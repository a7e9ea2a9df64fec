import Foundation
import MediaFormats
import TestSupport
import Testing

@testable import Playback

/// The facts seek and step rely on, read by our box reader through the timeline, against ffprobe on the
/// same files: every frame's time in presentation order, the keyframes, the frame count and the duration.
@Suite("Timeline facts against ffprobe", .tags(.process), .notInFastRun)
struct BoxFactsTests {
    @Test(.enabled(if: ExternalTool.ffprobe != nil, "needs ffprobe"), arguments: DemoClips.videos)
    func timelineMatchesFFprobe(name: String) throws {
        let media = try DemoClips.media(name)
        let probed = try ProbedVideo(path: DemoClips.path(name))
        let timeline = media.timeline
        #expect(timeline.frameCount == probed.frameTimes.count)
        for (frame, (ours, theirs)) in zip(timeline.frameTimes, probed.frameTimes).enumerated() {
            #expect(abs(ours - theirs) < 0.0005, "frame \(frame) at \(ours) s, ffprobe says \(theirs) s")
        }
        let ourKeyframes = timeline.keyframeFrames.map { timeline.frameTimes[$0] }
        #expect(ourKeyframes.count == probed.keyframeTimes.count)
        for (ours, theirs) in zip(ourKeyframes, probed.keyframeTimes) {
            #expect(abs(ours - theirs) < 0.0005, "keyframe at \(ours) s, ffprobe says \(theirs) s")
        }
        #expect(abs(timeline.duration - probed.duration) < 0.05)
    }

    /// The demo clips as the README describes them: landscape with moov first, portrait (rotated) and the
    /// QuickTime clip with moov at the end; one keyframe a second.
    @Test func demoClipsHaveTheShapeTheEngineTestsAssume() throws {
        let landscape = try DemoClips.media("landscape_faststart.mp4")
        #expect(landscape.movie.isFastStart)
        #expect(landscape.timeline.frameCount == 90)
        #expect(landscape.timeline.keyframeFrames == [0, 30, 60])
        #expect(abs((landscape.timeline.framesPerSecond ?? 0) - 30) < 0.01)
        #expect(landscape.video.orientation == .landscape)

        let portrait = try DemoClips.media("portrait_moovend.mp4")
        #expect(!portrait.movie.isFastStart)
        #expect(portrait.timeline.frameCount == 50)
        #expect(portrait.timeline.keyframeFrames == [0, 25])
        #expect(portrait.video.orientation == .portrait)
        #expect(portrait.video.displayWidth == 360 && portrait.video.displayHeight == 640)

        let quickTime = try DemoClips.media("clip.mov")
        #expect(!quickTime.movie.isFastStart)
        #expect(quickTime.contentType == "video/quicktime")
        #expect(quickTime.timeline.keyframeFrames == [0, 25])
    }

    /// Stepping frame by frame from the start visits exactly ffprobe's frame times, B-frames included.
    @Test(.enabled(if: ExternalTool.ffprobe != nil, "needs ffprobe"), arguments: DemoClips.videos)
    func steppingVisitsEveryFrameInPresentationOrder(name: String) throws {
        let probed = try ProbedVideo(path: DemoClips.path(name))
        let engine = PlaybackEngine(clock: ManualClock())
        engine.load(try DemoClips.media(name))
        var positions = [try #require(engine.status()).position]
        for _ in 1..<probed.frameTimes.count { positions.append(try engine.step(1).position) }
        #expect(positions.count == probed.frameTimes.count)
        for (ours, theirs) in zip(positions, probed.frameTimes) { #expect(abs(ours - theirs) < 0.0005) }
        let last = try engine.step(1)
        #expect(last.clamped == .end && last.moved == 0)
    }

    /// Seeking to each keyframe's time, and just before the next, lands on that keyframe as ffprobe lists it
    /// (`seek --key`), or on the frame ffprobe shows at that time (`seek`).
    @Test(.enabled(if: ExternalTool.ffprobe != nil, "needs ffprobe"), arguments: DemoClips.videos)
    func seeksLandOnFFprobeKeyframes(name: String) throws {
        let probed = try ProbedVideo(path: DemoClips.path(name))
        let engine = PlaybackEngine(clock: ManualClock())
        engine.load(try DemoClips.media(name))
        for (index, keyframe) in probed.keyframeTimes.enumerated() {
            let next = index + 1 < probed.keyframeTimes.count ? probed.keyframeTimes[index + 1] : probed.duration
            for target in [keyframe, (keyframe + next) / 2, next - 0.001] {
                let outcome = try engine.seek(.absolute(seconds: target), landing: .keyframe)
                #expect(abs(outcome.landed - keyframe) < 0.0005, "seek --key \(target) landed \(outcome.landed)")
                #expect(outcome.keyframeIndex == index)
                let exact = try engine.seek(.absolute(seconds: target))
                let shown = try #require(probed.frameTimes.lastIndex { $0 <= target + 0.0005 })
                #expect(exact.frameIndex == shown && abs(exact.landed - probed.frameTimes[shown]) < 0.0005, "seek \(target)")
                #expect(exact.keyframeIndex == index)
            }
        }
    }
}
