import Connectors
import Foundation
import MediaFormats
import MediaManager
import TestSupport
import Testing

@testable import Playback

/// Issue 18: the timelines of the corpus clips, read locally, over `dir:` and over PTP/IP, against what
/// ffprobe decodes of the same files: frame count, every frame's time, the shown keyframes, the duration,
/// where seeks land and where steps go, the frame rate (ffprobe's avg_frame_rate). `ls -l` (the listing),
/// `info` (the container) and `play` agree on the duration and the rate.
@Suite(
    "Timelines as players read them, against ffprobe",
    .enabled(if: ExternalTool.ffmpeg != nil && ExternalTool.ffprobe != nil, "needs ffmpeg and ffprobe"), .tags(.process, .port), .notInFastRun)
struct TimelineCorpusTests {
    static let seekTargets = [0, 0.5, 1.0, 1.5, 2.2, 3.0, 99]

    @Test(arguments: TimelineCase.allCases)
    func timelineMatchesFFprobeEverywhere(clip: TimelineCase) throws {
        let folder = try TemporaryFolder()
        let card = folder.path + "/card"
        try FileManager.default.createDirectory(atPath: card + "/DCIM/100TEST", withIntermediateDirectories: true)
        let cardPath = "DCIM/100TEST/" + clip.fileName
        let path = card + "/" + cardPath
        try clip.make(at: path, scratch: folder.path)
        let probe = try ProbedFrames(path: path)

        let local = try PlaybackMedia.read(name: clip.fileName, from: FileByteSource(path: path))
        try checkTimeline(local, clip, at: path, against: probe)
        let moves = try walk(local, against: probe)
        print("timeline \(clip): ffprobe \(probe.frameTimes.count) frames, \(probe.duration) s, keyframes \(probe.keyframeTimes); "
            + "ours \(local.timeline.frameCount) frames, \(local.duration) s")

        let camera = try LoopbackCamera(folder: card)
        for url in [CameraURL.folder(path: card), camera.url] {
            let session = try MediaSession.open(url)
            defer { session.close() }
            try session.catalog.ensureLoaded()
            let file = try #require(session.catalog.file(atPath: cardPath))
            let media = try session.playbackMedia(for: file)
            #expect(media.timeline.frameTimes == local.timeline.frameTimes, "\(url)")
            // One duration: `info` reads the container, `ls -l` the listing (in milliseconds).
            #expect(VideoDetails(movie: try session.movieInfo(for: file)).duration == media.duration)
            let listed = try #require(file.video?.duration, "\(url) lists no duration")
            #expect(abs(listed - media.duration) < 0.0015, "\(url): ls -l says \(listed), play \(media.duration)")
            let listedRate = try #require(file.video?.framesPerSecond, "\(url) lists no frame rate")
            #expect(abs(listedRate - probe.averageFrameRate) < 0.001, "\(url): ls -l says \(listedRate) fps")
            #expect(try walk(media, against: probe) == moves, "\(url)")
        }
    }

    /// Issue 42: a seek every 10 ms across each clip lands on the frame ffprobe shows at that time (never
    /// after it, less than one frame before it), and status shows that frame.
    @Test(arguments: TimelineCase.allCases)
    func exactSeeksLandOnTheFrameFFprobeShows(clip: TimelineCase) throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/" + clip.fileName
        try clip.make(at: path, scratch: folder.path)
        try checkExactSeeks(path: path, name: clip.fileName, "\(clip)")
    }

    /// The same on HEVC (open GOP, Main 10), a rotated MOV and 29.97 fps.
    @Test(arguments: OtherClipKind.allCases)
    func exactSeeksOnOtherCodecsAndContainers(kind: OtherClipKind) throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/" + kind.fileName
        try kind.make(at: path)
        try checkExactSeeks(path: path, name: kind.fileName, "\(kind)")
    }

    /// Seeks every 10 ms of the clip at `path`, each checked against ffprobe's frame times.
    private func checkExactSeeks(path: String, name: String, _ clip: String) throws {
        let probe = try ProbedFrames(path: path)
        let media = try PlaybackMedia.read(name: name, from: FileByteSource(path: path))
        try #require(media.timeline.frameTimes.count == probe.frameTimes.count, "\(clip): frames")
        let controller = PlaybackController(clock: ManualClock(), player: .none)
        defer { controller.shutdown() }
        try controller.play(media)
        try controller.pause()
        var farthest = 0.0
        let lastTime = try #require(probe.frameTimes.last)
        for step in 0...Int((media.duration * 100).rounded(.down)) {
            let target = Double(step) / 100
            let expected = probe.frame(at: target)
            let outcome = try controller.seek(.absolute(seconds: target))
            let status = try #require(controller.status())
            #expect(status.frameIndex == expected, "seek \(target): frame \(status.frameIndex), ffprobe shows \(expected)")
            #expect(abs(outcome.landed - probe.frameTimes[expected]) < 0.001, "seek \(target) landed at \(outcome.landed)")
            // Before the first frame (a leading empty edit) the first frame shows; past the last, the last.
            guard target >= probe.frameTimes[0], target < lastTime else { continue }
            let next = probe.frameTimes[expected + 1]
            #expect(outcome.landed <= target + 0.001 && target < next + 0.001, "seek \(target) landed at \(outcome.landed)")
            farthest = max(farthest, target - outcome.landed)
        }
        print("exact seeks \(clip): every 10 ms, farthest \(farthest) s before the time asked")
    }

    private func checkTimeline(
        _ media: PlaybackMedia, _ clip: TimelineCase, at path: String, against probe: ProbedFrames
    ) throws {
        let timeline = media.timeline
        try #require(timeline.frameCount == probe.frameTimes.count, "frames: ours \(timeline.frameCount), ffprobe \(probe.frameTimes.count)")
        for (number, (ours, theirs)) in zip(timeline.frameTimes, probe.frameTimes).enumerated() {
            #expect(abs(ours - theirs) < 0.001, "frame \(number) at \(ours) s, ffprobe says \(theirs) s")
        }
        let keyframes = timeline.keyframeFrames.map { timeline.frameTimes[$0] }
        #expect(keyframes.count == probe.keyframeTimes.count, "keyframes \(keyframes), ffprobe \(probe.keyframeTimes)")
        for (ours, theirs) in zip(keyframes, probe.keyframeTimes) { #expect(abs(ours - theirs) < 0.001) }

        // The rate the clip was recorded at, as ffprobe's avg_frame_rate: not lowered by an empty edit, hidden
        // pre-roll or a cut-off end (issue 27).
        let details = VideoDetails(movie: media.movie)
        #expect(abs((details.framesPerSecond ?? 0) - probe.averageFrameRate) < 0.001,
                "\(details.framesPerSecond ?? 0) fps, ffprobe's avg_frame_rate \(probe.averageFrameRate)")
        switch clip {
        case .variableRate:
            let range = try #require(details.frameRateRange, "a variable rate is said")
            #expect(abs(range.lowerBound - 10) < 0.001 && abs(range.upperBound - 30) < 0.001, "\(range)")
        case .vfrLastSampleAtEditEnd:
            #expect(details.frameRateRange != nil)
        default:
            #expect(details.frameRateRange == nil, "a constant rate: \(String(describing: details.frameRateRange))")
        }

        let status = try #require(PlaybackEngineProbe.status(of: media))
        #expect(abs((status.framesPerSecond ?? 0) - probe.averageFrameRate) < 0.001, "play says \(status.framesPerSecond ?? 0) fps")
        if clip == .truncatedFastStart {
            let cut = try #require(status.truncated)
            #expect(abs((cut.declaredDuration ?? -1) - probe.duration) < 0.002)
            #expect(abs(media.duration - (probe.frameTimes.last! + 1.0 / 30)) < 0.002)
            #expect(cut.completeFrames == probe.frameTimes.count && cut.declaredFrames == 120)
        } else {
            #expect(status.truncated == nil)
            #expect(abs(media.duration - probe.duration) < 0.002, "duration \(media.duration), ffprobe \(probe.duration)")
        }
        switch clip {
        case .preroll:
            let leadIn = try #require(status.decodeLeadIn)
            #expect(leadIn.hiddenFrames == 39 && abs(leadIn.hiddenKeyframeSecondsBefore - 1.3) < 0.001)
        case .prerollMidFrame:
            // Frames 0-7 (to 0.28 s, the one straddling 0.3 s included) are decoded and dropped.
            let leadIn = try #require(status.decodeLeadIn)
            #expect(leadIn.hiddenFrames == 8 && abs(leadIn.hiddenKeyframeSecondsBefore - 0.32) < 0.001, "\(leadIn)")
        default:
            #expect(status.decodeLeadIn == nil)
        }
        if clip == .preroll || clip == .prerollMidFrame {
            // Packet times, the hidden pre-roll's before 0, are ffprobe's too.
            let table = media.video.sampleTable
            let packets = try ProbedFrames.packetTimes(path)
            try #require(packets.count == table.count)
            for (index, (sample, pts)) in zip(table.samples, packets).enumerated() {
                #expect(abs(table.seconds(sample.presentationTime) - pts) < 0.001, "packet \(index): \(pts)")
            }
        }
    }

    /// Seeks and steps as a user would, each checked against ffprobe; returns where they went, so other
    /// transports can be compared with it.
    private func walk(_ media: PlaybackMedia, against probe: ProbedFrames) throws -> [Double] {
        let controller = PlaybackController(clock: ManualClock(), player: .none)
        defer { controller.shutdown() }
        try controller.play(media)
        try controller.pause()
        var trail: [Double] = []
        for target in Self.seekTargets {
            let outcome = try controller.seek(.absolute(seconds: target), landing: .keyframe)
            let expected = probe.landing(min(target, media.duration))
            #expect(abs(outcome.landed - expected) < 0.001, "seek --key \(target) landed at \(outcome.landed), ffprobe's keyframe \(expected)")
            #expect(outcome.landed >= 0)
            trail.append(outcome.landed)
            let exact = try controller.seek(.absolute(seconds: target))
            let shown = probe.frame(at: min(target, media.duration))
            #expect(exact.frameIndex == shown && abs(exact.landed - probe.frameTimes[shown]) < 0.001, "seek \(target) landed at \(exact.landed)")
            trail.append(exact.landed)
        }
        let start = try controller.seek(.absolute(seconds: 1.5), landing: .keyframe)
        var frame = probe.frame(at: start.landed)
        for count in [4, -2, 1, -1000, 10_000] {
            let outcome = try controller.step(count)
            frame = min(max(frame + count, 0), probe.frameTimes.count - 1)
            #expect(outcome.frameIndex == frame, "step \(count)")
            #expect(abs(outcome.position - probe.frameTimes[frame]) < 0.001, "step \(count) to \(outcome.position)")
            trail.append(outcome.position)
        }
        return trail
    }
}

/// The status a freshly loaded clip reports.
enum PlaybackEngineProbe {
    static func status(of media: PlaybackMedia) -> PlaybackStatus? {
        let engine = PlaybackEngine(clock: ManualClock())
        engine.load(media)
        return engine.status()
    }
}
