import Connectors
import Foundation
import MediaFormats
import MediaManager
import TestSupport
import Testing

@testable import Playback

/// Issue 18: a long fragmented recording (600 fragments, as a camera that must survive a power cut writes
/// one) is opened in a few range reads when an index says where its fragments are (`sidx` after the movie
/// box, or `mfra` at the end), and its frames, keyframes, seeks and steps are still those ffprobe decodes.
@Suite(
    "Long fragmented movies read from their index, against ffprobe",
    .enabled(if: ExternalTool.ffmpeg != nil && ExternalTool.ffprobe != nil, "needs ffmpeg and ffprobe"), .tags(.process, .port), .notInFastRun)
struct LongFragmentedTests {
    /// The most range reads opening the movie may cost (ftyp+moov, the index, the first and last fragment).
    static let openBudget = 8

    enum Layout: String, CaseIterable, Sendable {
        /// `frag_keyframe+empty_moov+default_base_moof`: no `sidx`, a `mfra` closes the file.
        case randomAccessAtEnd = "frag_keyframe+empty_moov+default_base_moof"
        /// The same with `+global_sidx`: one `sidx` after the movie box indexes every fragment.
        case globalSegmentIndex = "frag_keyframe+empty_moov+default_base_moof+global_sidx"
        /// `dash+global_sidx`, as DASH packagers write it.
        case dash = "dash+global_sidx"
    }

    /// 60 s at 30 fps with a keyframe every 3 frames and B-frames: 1,800 frames in 600 fragments.
    static func make(_ layout: Layout, at path: String) throws {
        let ffmpeg = try #require(ExternalTool.ffmpeg)
        try ffmpeg.run([
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x64:rate=30", "-t", "60", "-c:v", "libx264",
            "-preset", "ultrafast", "-g", "3", "-keyint_min", "3", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
            "-x264-params", "bframes=2", "-movflags", layout.rawValue, path,
        ])
    }

    @Test(arguments: Layout.allCases)
    func opensInAFewReadsAndSeeksWhereFFprobeDoes(layout: Layout) throws {
        let folder = try TemporaryFolder()
        let card = folder.path + "/card"
        try FileManager.default.createDirectory(atPath: card + "/DCIM/100TEST", withIntermediateDirectories: true)
        let cardPath = "DCIM/100TEST/LONG.MP4"
        let path = card + "/" + cardPath
        try Self.make(layout, at: path)
        let probe = try ProbedFrames(path: path)

        let counted = CountingByteSource(try FileByteSource(path: path))
        let local = try PlaybackMedia.read(name: "LONG.MP4", from: counted)
        #expect(local.movie.fragmentsFromIndex && local.movie.fragmentCount == 600)
        #expect(counted.readCount <= Self.openBudget, "opening cost \(counted.readCount) reads")
        try check(local, against: probe)
        #expect(counted.readCount <= Self.openBudget, "seeking and stepping read \(counted.readCount) times in all")

        // The same over `dir:` and PTP/IP: each read is a GetPartialObject.
        let camera = try LoopbackCamera(folder: card)
        for url in [CameraURL.folder(path: card), camera.url] {
            let session = try MediaSession.open(url)
            defer { session.close() }
            try session.catalog.ensureLoaded()
            let file = try #require(session.catalog.file(atPath: cardPath))
            let source = session.byteSource(for: file)
            let remote = try PlaybackMedia.read(name: file.name, from: source)
            #expect(source.readCount <= Self.openBudget, "opening over \(url) cost \(source.readCount) GetPartialObject")
            #expect(remote.timeline.frameTimes == local.timeline.frameTimes, "\(url)")
            #expect(VideoDetails(movie: try session.movieInfo(for: file)).duration == remote.duration, "\(url)")
        }
    }

    /// A recording cut off before its index was written (the power cut fragmenting is for): every fragment
    /// is walked, and what is there still plays right.
    @Test func withoutItsIndexEveryFragmentIsWalked() throws {
        let folder = try TemporaryFolder()
        let whole = folder.path + "/whole.mp4"
        try Self.make(.randomAccessAtEnd, at: whole)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        // The last 4 bytes of the mfro give the mfra's size; cut the file where the mfra starts.
        let mfraSize = bytes.suffix(4).reduce(0) { $0 << 8 | Int($1) }
        let path = folder.path + "/cut.mp4"
        try bytes.prefix(bytes.count - mfraSize).write(to: URL(fileURLWithPath: path))
        let probe = try ProbedFrames(path: path)

        let media = try PlaybackMedia.read(name: "cut.mp4", from: FileByteSource(path: path))
        #expect(!media.movie.fragmentsFromIndex && media.movie.fragmentCount == 600)
        try check(media, against: probe)
    }

    private func check(_ media: PlaybackMedia, against probe: ProbedFrames) throws {
        let timeline = media.timeline
        try #require(timeline.frameCount == probe.frameTimes.count, "frames: ours \(timeline.frameCount), ffprobe \(probe.frameTimes.count)")
        #expect(zip(timeline.frameTimes, probe.frameTimes).allSatisfy { abs($0 - $1) < 0.001 })
        let keyframes = timeline.keyframeFrames.map { timeline.frameTimes[$0] }
        #expect(keyframes.count == probe.keyframeTimes.count)
        #expect(zip(keyframes, probe.keyframeTimes).allSatisfy { abs($0 - $1) < 0.001 })
        #expect(abs(media.duration - probe.duration) < 0.002, "duration \(media.duration), ffprobe \(probe.duration)")

        let controller = PlaybackController(clock: ManualClock(), player: .none)
        defer { controller.shutdown() }
        try controller.play(media)
        try controller.pause()
        for target in [0, 0.05, 7.4, 29.99, 30.0, 45.123, 59.9, 99] {
            let outcome = try controller.seek(.absolute(seconds: target), landing: .keyframe)
            let expected = probe.landing(min(target, media.duration))
            #expect(abs(outcome.landed - expected) < 0.001, "seek --key \(target) landed at \(outcome.landed), ffprobe's keyframe \(expected)")
            let exact = try controller.seek(.absolute(seconds: target))
            let shown = probe.frame(at: min(target, media.duration))
            #expect(exact.frameIndex == shown && abs(exact.landed - probe.frameTimes[shown]) < 0.001, "seek \(target) landed at \(exact.landed)")
        }
        let start = try controller.seek(.absolute(seconds: 31))
        var frame = probe.frame(at: start.landed)
        for count in [1, 2, -5, 100, -10_000, 10_000] {
            let outcome = try controller.step(count)
            frame = min(max(frame + count, 0), probe.frameTimes.count - 1)
            #expect(outcome.frameIndex == frame && abs(outcome.position - probe.frameTimes[frame]) < 0.001, "step \(count)")
        }
    }
}
