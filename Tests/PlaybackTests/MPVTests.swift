import Connectors
import Foundation
import POSIX
import MediaFormats
import MediaManager
import TestSupport
import Testing

@testable import Playback

#if canImport(Glibc)
    import Glibc
#endif

/// mpv driven end to end through its IPC socket, with no video or audio output. Enabled only when mpv is on
/// PATH (and ffmpeg, which makes the clips).
@Suite(
    "mpv end to end", .serialized,
    .enabled(if: ExternalTool.mpv != nil && ExternalTool.ffmpeg != nil, "needs mpv and ffmpeg"), .tags(.process, .port), .notInFastRun)
struct MPVTests {
    static let quiet = ["--no-config", "--vo=null", "--ao=null"]

    /// An 8 s, 30 fps clip with a keyframe every second (moov at the end), in a folder removed afterwards.
    final class Clip: @unchecked Sendable {
        let folder: TemporaryFolder
        let path: String
        init() throws {
            folder = try TemporaryFolder()
            path = folder.path + "/clip8.mp4"
            try makeClip(at: path, seconds: 8)
        }
        func media() throws -> PlaybackMedia { try PlaybackMedia.read(name: "clip8.mp4", from: FileByteSource(path: path)) }
    }

    static func isGone(_ pid: Int32) -> Bool { kill(pid, 0) != 0 && errno == ESRCH }

    @Test func seekThenStatusReportsThePlayersPositionOnTheKeyframe() throws {
        let clip = try Clip()
        let controller = PlaybackController(player: .mpv(extraArguments: Self.quiet))
        defer { controller.shutdown() }
        var status = try controller.play(try clip.media())
        #expect(status.player?.name == "mpv")
        try #require(status.player?.running == true, "mpv did not start: \(status.line)")
        let player = try #require(controller.currentPlayer as? MPVPlayer)
        let pid = try #require(player.processID)
        let frame = 1.0 / 30

        try controller.pause()
        let seek = try controller.seek(.absolute(seconds: 3))
        #expect(seek.landed == 3.0 && seek.keyframeIndex == 3)
        status = try #require(controller.status())
        let reported = try #require(status.player?.position, "mpv reported no position: \(status.line)")
        #expect(abs(reported - 3.0) <= frame, "mpv is at \(reported) s after seek 3")
        #expect(abs(status.position - 3.0) <= frame && status.state == .paused)

        // Between keyframes: a keyframe seek to 2.4 lands on the keyframe at 2.0, and so does mpv.
        let earlier = try controller.seek(.absolute(seconds: 2.4), landing: .keyframe)
        #expect(earlier.landed == 2.0)
        let atKeyframe = try #require(controller.status()?.player?.position)
        #expect(abs(atKeyframe - 2.0) <= frame / 2, "mpv is at \(atKeyframe) s after seek --key 2.4")
        // An exact one lands on frame 72 at 2.4, and mpv shows it.
        let exact = try controller.seek(.absolute(seconds: 2.4))
        #expect(exact.frameIndex == 72)
        let atFrame = try #require(controller.status()?.player?.position)
        #expect(abs(atFrame - 2.4) <= frame / 2, "mpv is at \(atFrame) s after seek 2.4")

        let step = try controller.step(3)
        #expect(step.frameIndex == 75)
        let stepped = try #require(controller.status()?.player?.position)
        #expect(abs(stepped - 75.0 / 30) <= frame / 2, "mpv is at \(stepped) s after step 3")

        try controller.resume()
        #expect(controller.status()?.state == .playing)
        try controller.stop()
        #expect(Self.isGone(pid), "mpv (pid \(pid)) still runs after stop")
        #expect(controller.status()?.state == .stopped)
    }

    /// Issue 42's clip, a keyframe every 10 s: mpv shows the frame the engine lands on (its own `time-pos`,
    /// within half a frame), for exact seeks, keyframe seeks, relative seeks and frame numbers.
    @Test func mpvShowsTheFrameAnExactSeekLandsOn() throws {
        let clip = try SparseKeyframeClip()
        let controller = PlaybackController(player: .mpv(extraArguments: Self.quiet))
        defer { controller.shutdown() }
        try controller.play(try clip.media())
        try #require(controller.status()?.player?.running == true)
        try controller.pause()
        let steps: [(String, () throws -> Double)] = [
            ("seek 25.5", { try controller.seek(.absolute(seconds: 25.5)).landed }),
            ("seek --key 25.5", { try controller.seek(.absolute(seconds: 25.5), landing: .keyframe).landed }),
            ("seek +5", { try controller.seek(.relative(seconds: 5)).landed }),
            ("frame 1234", { try controller.seek(.frame(1234)).landed }),
            ("seek -0.5", { try controller.seek(.relative(seconds: -0.5)).landed }),
            ("step -3", { try controller.step(-3).position }),
        ]
        var shown: [Double] = []
        for (name, move) in steps {
            let landed = try move()
            let status = try #require(controller.status())
            let position = try #require(status.player?.position, "mpv reported no position after \(name)")
            #expect(abs(position - landed) <= 0.02, "\(name): the engine landed at \(landed) s, mpv is at \(position) s")
            #expect(abs(status.position - landed) < 1e-9 && status.frameIndex == clip.probe.frame(at: landed))
            shown.append(position)
        }
        #expect(zip(shown, [25.48, 20, 25, 49.36, 48.84, 48.72]).allSatisfy { abs($0 - $1) <= 0.02 }, "mpv showed \(shown)")
    }

    @Test func reachingTheEndInMPVEndsPlayback() throws {
        let clip = try Clip()
        let controller = PlaybackController(player: .mpv(extraArguments: Self.quiet))
        defer { controller.shutdown() }
        // Each status seen counts one, and wakes the wait below.
        let seen = LockedCondition(0)
        let log = StatusLog()
        controller.setObserver { status in
            log.append(status)
            seen.change { $0 += 1 }
        }
        try controller.play(try clip.media())
        try #require(controller.status()?.player?.running == true)
        try controller.seek(.absolute(seconds: 7.5))
        // mpv plays the last half second and says it reached the end; wait for that, bounded.
        let sawEnd = seen.wait(until: .after(20)) { _ in log.states.last == .ended }
        #expect(sawEnd, "no end after \(log.states)")
        #expect(controller.status()?.state == .ended)
    }

    @Test func shutdownEndsThePlayerProcess() throws {
        let clip = try Clip()
        let controller = PlaybackController(player: .mpv(extraArguments: Self.quiet))
        try controller.play(try clip.media())
        let player = try #require(controller.currentPlayer as? MPVPlayer)
        let pid = try #require(player.processID)
        #expect(!Self.isGone(pid))
        controller.shutdown()
        #expect(Self.isGone(pid), "mpv (pid \(pid)) still runs after shutdown")
    }

    /// If the shell dies without closing mpv, mpv's end of the lifeline closes and it quits by itself.
    @Test func mpvQuitsWhenTheShellsLifelineCloses() throws {
        let clip = try Clip()
        let player = MPVPlayer(executable: try #require(MPVPlayer.locate()), extraArguments: Self.quiet)
        // Each event seen counts one, and wakes the wait below.
        let seen = LockedCondition(0)
        let events = EventLog()
        player.setEventHandler { event in
            events.append(event)
            seen.change { $0 += 1 }
        }
        let media = try clip.media()
        let server = MediaStreamServer(source: media.source, name: media.name)
        try server.start()
        defer { server.stop() }
        try player.open(url: server.url, title: media.name, at: 0, paused: true)
        let process = try #require(player.process)

        player.dropLifeline()
        let quit = seen.wait(until: .after(10)) { _ in events.events.contains(.exited) }
        #expect(quit, "mpv did not quit when its lifeline closed")
        process.reap(blocking: true)
        let status = try #require(process.status)
        #expect(status & 0x7F == 0, "mpv was killed by signal \(status & 0x7F) instead of quitting")
        player.close()
        #expect(Self.isGone(process.pid))
    }

    @Test func aPlayerThatCannotOpenTheStreamIsReportedAndPlaybackGoesOn() throws {
        let player = MPVPlayer(executable: try #require(MPVPlayer.locate()), extraArguments: Self.quiet)
        defer { player.close() }
        let server = MediaStreamServer(source: MemoryByteSource(Array(repeating: 0, count: 1000)), name: "junk.mp4")
        try server.start()
        defer { server.stop() }
        let error = #expect(throws: PlaybackError.self) {
            try player.open(url: server.url, title: "junk.mp4", at: 0, paused: true)
        }
        #expect(error?.kind == .player)
        #expect(!player.isRunning)
    }

    @Test func playingFromTheCameraOverPTPIPStreamsOnlyWhatMPVNeeds() throws {
        // mpv reads about 4 s ahead of where it is (our --cache-secs), so take a clip much longer than that.
        let clip = try CameraClip(seconds: 90, size: "640x360", bitrate: "2M")
        let camera = try LoopbackCamera(folder: clip.folder.path)
        let session = try MediaSession.open(camera.url)
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let file = try #require(session.catalog.file(atPath: clip.cardPath))
        let media = try session.playbackMedia(for: file)
        let source = try #require(media.source as? CameraByteSource)

        let controller = PlaybackController(player: .mpv(extraArguments: Self.quiet))
        defer { controller.shutdown() }
        try controller.play(media)
        try #require(controller.status()?.player?.running == true)
        try controller.pause()
        #expect(try controller.seek(.absolute(seconds: 60.5)).frameIndex == 1815)
        let position = try #require(controller.status()?.player?.position)
        #expect(abs(position - 60.5) <= 0.5 / 30)
        let server = try #require(controller.currentServer)
        try controller.stop()
        let requests = server.requestLog.joined(separator: "; ")  // mpv is gone: nothing more is read

        let share = Double(source.bytesRead) / Double(file.size)
        print("""
            mpv over PTP/IP: file \(file.size) B; play, pause, seek 60.5, stop: \(source.bytesRead) B through \
            GetPartialObject in \(source.readCount) reads (\(String(format: "%.1f", share * 100))%); mpv asked: \(requests)
            """)
        #expect(share < 0.25, "read \(source.bytesRead) of \(file.size) bytes")
    }
}

/// Player events seen, in order.
final class EventLog: Sendable {
    private let seen = Locked<[PlayerEvent]>([])
    func append(_ event: PlayerEvent) { seen.withLock { $0.append(event) } }
    var events: [PlayerEvent] { seen.withLock { $0 } }
}
