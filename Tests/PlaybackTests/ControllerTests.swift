import Foundation
import POSIX
import MediaFormats
import Testing

@testable import Playback

/// The controller the shell drives: commands reach the engine and the player, the player's own account
/// wins in status, and a player that fails or exits never stops playback.
@Suite("Playback controller")
struct ControllerTests {
    let clock = ManualClock()
    let media: PlaybackMedia
    let reference: [UInt8]

    init() throws {
        media = try DemoClips.media("landscape_faststart.mp4")
        reference = [UInt8](try Data(contentsOf: URL(fileURLWithPath: DemoClips.path("landscape_faststart.mp4"))))
    }

    /// A controller whose players are `RangeReadingPlayer`s, and the list of those it made.
    func controller(failOpen: Bool = false) -> (PlaybackController, PlayerLog) {
        let log = PlayerLog()
        let media = self.media
        let reference = self.reference
        let controller = PlaybackController(clock: clock, player: PlayerLauncher {
            let player = RangeReadingPlayer(media: media, reference: reference)
            player.failOpen = failOpen
            log.append(player)
            return player
        })
        return (controller, log)
    }

    @Test func commandsDriveThePlayerThroughTheEndpoint() throws {
        let (controller, log) = controller()
        defer { controller.shutdown() }
        #expect(controller.status() == nil && controller.promptFragment() == nil && !controller.isLoaded)

        var status = try controller.play(media)
        #expect(status.state == .playing && status.player?.name == "range-reader" && status.player?.running == true)
        #expect(status.player?.streamURL?.hasPrefix("http://127.0.0.1:") == true)
        #expect(controller.loadedName == "landscape_faststart.mp4")
        try controller.pause()
        #expect(try controller.seek(.absolute(seconds: 2.4), landing: .keyframe).landed == 2.0)
        let seek = try controller.seek(.absolute(seconds: 2.4))
        #expect(seek.frameIndex == 72 && abs(seek.landed - 2.4) < 1e-9)
        let step = try controller.step(2)
        #expect(step.frameIndex == 74)
        status = try #require(controller.status())
        #expect(status.state == .paused && abs(status.position - 74.0 / 30) < 1e-6)
        #expect(status.player?.position.map { abs($0 - 74.0 / 30) < 1e-3 } == true)
        try controller.resume()
        try controller.stop()
        #expect(controller.status()?.player == nil && controller.status()?.state == .stopped)

        let player = try #require(log.players.first)
        #expect(player.calls == [
            "open landscape_faststart.mp4 at 0.0 playing", "pause", "seek 2.0000 keyframe", "seek 2.4000", "seek 2.4667",
            "resume", "close",
        ])
        #expect(player.mismatches == 0 && player.bytesFetched > 0)

        // play after stop starts a new player from the start.
        status = try controller.play()
        #expect(status.state == .playing && status.position == 0 && log.players.count == 2)
        #expect(log.players[1].calls == ["open landscape_faststart.mp4 at 0.0 playing"])
    }

    @Test func thePlayersPositionWinsInStatus() throws {
        let (controller, log) = controller()
        defer { controller.shutdown() }
        try controller.play(media)
        clock.advance(by: 1)
        // The stand-in player reports where it was told to be (0), not where the clock says.
        #expect(controller.status()?.position == 0)
        try #require(log.players.first).send(.reachedEnd)
        #expect(controller.status()?.state == .ended)
    }

    @Test func aPlayerThatFailsToStartLeavesPlaybackWorking() throws {
        let (controller, _) = controller(failOpen: true)
        defer { controller.shutdown() }
        let status = try controller.play(media)
        #expect(status.state == .playing)
        #expect(status.player?.running == false && status.player?.problem == RangeReadingPlayer.refusedToStart)
        clock.advance(by: 1.5)
        try controller.pause()
        #expect(controller.status()?.position == 1.5)
        #expect(try controller.seek(.percent(50)).landed == 1.5)
        #expect(controller.status()?.player?.problem == RangeReadingPlayer.refusedToStart)
        #expect(controller.status()?.line.contains("  range-reader: ") == true, "status says the player does not run")
    }

    @Test func aPlayerThatExitsLeavesPlaybackWorking() throws {
        let (controller, log) = controller()
        defer { controller.shutdown() }
        try controller.play(media)
        try #require(log.players.first).send(.exited)
        let status = try #require(controller.status())
        #expect(status.player?.running == false && status.player?.problem == PlaybackError(.player("range-reader", .exitedByItself)))
        clock.advance(by: 0.5)
        try controller.pause()
        #expect(controller.status()?.position == 0.5)
        // play reopens it.
        try controller.play()
        #expect(log.players.count == 2 && controller.status()?.player?.running == true)
    }

    @Test func withoutAPlayerEverythingWorks() throws {
        let controller = PlaybackController(clock: clock, player: .none)
        defer { controller.shutdown() }
        try controller.play(media)
        clock.advance(by: 0.75)
        try controller.pause()
        #expect(try controller.seek(.relative(seconds: 1)).frameIndex == 52)
        #expect(try controller.step(-1).frameIndex == 51)
        let status = try #require(controller.status())
        #expect(status.player == nil && status.state == .paused)
        #expect(controller.promptFragment() == "‖ 0:01.7/0:03")
        try controller.stop()
        controller.shutdown()
        #expect(controller.status() == nil && !controller.isLoaded)
        #expect(throws: PlaybackError.nothingLoaded) { try controller.play() }
    }

    @Test func playingANewVideoReplacesThePlayer() throws {
        let (controller, log) = controller()
        defer { controller.shutdown() }
        try controller.play(media)
        try controller.play(try DemoClips.media("portrait_moovend.mp4"))
        #expect(log.players.count == 2 && log.players[0].calls.last == "close")
        #expect(controller.status()?.media == "portrait_moovend.mp4" && controller.status()?.orientation == "portrait")
    }

    @Test func theObserverSeesEveryChange() throws {
        let (controller, _) = controller()
        defer { controller.shutdown() }
        let seen = StatusLog()
        controller.setObserver { seen.append($0) }
        try controller.play(media)
        try controller.pause()
        try controller.resume()
        try controller.stop()
        #expect(seen.states.contains(.playing) && seen.states.contains(.paused) && seen.states.last == .stopped)
    }
}

/// The players a launcher made, in order.
final class PlayerLog: Sendable {
    private let made = Locked<[RangeReadingPlayer]>([])
    func append(_ player: RangeReadingPlayer) { made.withLock { $0.append(player) } }
    var players: [RangeReadingPlayer] { made.withLock { $0 } }
}
