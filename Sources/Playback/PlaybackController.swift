import Foundation
import MediaFormats
import POSIX

/// What the shell drives: the playback engine, plus, when a player is installed, the player showing the video
/// and the loopback endpoint streaming it from the camera. Every command works without a player; a player
/// that fails or exits is reported in `status` and playback goes on by the clock.
///
/// Commands run one at a time; `status()` and `promptFragment()` may be called from any thread meanwhile.
public final class PlaybackController: Sendable {
    /// The state machine (also usable alone, for example to observe changes).
    public let engine: PlaybackEngine
    private let launcher: PlayerLauncher
    private let streamLimits: MediaStreamServer.Limits
    /// Serializes commands: a command holds it from start to end (it takes `running` inside, never the reverse).
    private let commandTurn = Locked.turn()
    /// The player showing the video, the endpoint streaming it, and what status says of them.
    private let running = Locked(Running())

    private struct Running {
        var player: (any Player)?
        var server: MediaStreamServer?
        var report: PlayerReport?
    }

    /// `player` chooses the external player (`.automatic`: mpv when installed; `.none` for none).
    public init(
        clock: any PlaybackClock = SystemPlaybackClock(), player: PlayerLauncher = .automatic,
        streamLimits: MediaStreamServer.Limits = .init()
    ) {
        engine = PlaybackEngine(clock: clock)
        launcher = player
        self.streamLimits = streamLimits
    }

    deinit { shutdown() }

    /// True while a video is loaded (the prompt shows `promptFragment()` then).
    public var isLoaded: Bool { engine.loadedMedia != nil }

    /// The loaded video's name.
    public var loadedName: String? { engine.loadedMedia?.name }

    /// The seed's state callback: called with the new status on every change (commands, the end of the clip).
    public func setObserver(_ observer: (@Sendable (PlaybackStatus) -> Void)?) {
        engine.setObserver(observer)
    }

    // MARK: Commands

    /// `play [NAME]`: with `media`, loads it and plays from the start; without, plays the loaded video (from
    /// the start when stopped or ended, from where it is when paused). Starts the player when one is installed.
    @discardableResult
    public func play(_ media: PlaybackMedia? = nil) throws(PlaybackError) -> PlaybackStatus {
        try serialized { () throws(PlaybackError) in
            if let media {
                tearDownPlayer()
                engine.load(media)
            }
            guard let current = engine.status() else { throw PlaybackError.nothingLoaded }
            switch current.state {
            case .playing:
                break
            case .paused:
                try engine.play()
                if !startPlayerIfNeeded(at: current.position, paused: false) { drive(.setPaused(false)) }
            case .stopped, .ended:
                if startPlayerIfNeeded(at: 0, paused: false) {
                    try engine.play()
                } else {
                    drive(.seek(to: 0, landing: .frame))
                    try engine.play()
                    drive(.setPaused(false))
                }
            }
            return currentStatus()
        }
    }

    /// `pause`: pauses where the player (or the clock) is.
    @discardableResult
    public func pause() throws(PlaybackError) -> PlaybackStatus {
        try serialized { () throws(PlaybackError) in
            try engine.pause()
            drive(.setPaused(true))
            return currentStatus()
        }
    }

    /// `resume`: continues a paused video.
    @discardableResult
    public func resume() throws(PlaybackError) -> PlaybackStatus {
        try serialized { () throws(PlaybackError) in
            try engine.resume()
            drive(.setPaused(false))
            return currentStatus()
        }
    }

    /// `stop`: back to the start, the player closed and the endpoint shut; the video stays loaded.
    @discardableResult
    public func stop() throws(PlaybackError) -> PlaybackStatus {
        try serialized { () throws(PlaybackError) in
            try engine.stop()
            tearDownPlayer()
            return currentStatus()
        }
    }

    /// `seek POS`: lands on the frame shown at the (clamped) target, or with `.keyframe` on the keyframe at or
    /// before it, in the engine and the player.
    @discardableResult
    public func seek(_ target: SeekTarget, landing: SeekLanding = .frame) throws(PlaybackError) -> SeekOutcome {
        try serialized { () throws(PlaybackError) in
            sync()
            let outcome = try engine.seek(target, landing: landing)
            // The first frame of a clip cut mid-GOP is no keyframe: the player decodes it from the hidden one.
            let shown = outcome.keyframeIndex == nil ? .frame : landing
            drive(.seek(to: outcome.landed, landing: shown))
            return outcome
        }
    }

    /// `step [N]`: N frames on (back when negative) while paused.
    @discardableResult
    public func step(_ frames: Int = 1) throws(PlaybackError) -> StepOutcome {
        try serialized { () throws(PlaybackError) in
            sync()
            let outcome = try engine.step(frames)
            drive(.seek(to: outcome.position, landing: .frame))
            return outcome
        }
    }

    /// `status`: the state now (asking the player where it really is), or nil when nothing is loaded.
    public func status() -> PlaybackStatus? {
        guard isLoaded else { return nil }
        let observed = sync()
        guard var status = engine.status() else { return nil }
        status.player = running.withLock { $0.report }
        status.player?.position = observed?.position
        return status
    }

    /// For the prompt while a video is loaded: `▶ 0:12.3/0:45`; nil when nothing is loaded.
    public func promptFragment(ascii: Bool = false) -> String? {
        status()?.promptFragment(ascii: ascii)
    }

    /// Ends the player and the endpoint and forgets the video: call when the camera closes or the shell exits.
    public func shutdown() {
        commandTurn.withLock { _ in
            tearDownPlayer()
            engine.unload()
        }
    }

    // MARK: Player

    /// The player in use, for tests.
    var currentPlayer: (any Player)? { running.withLock { $0.player } }

    /// The streaming endpoint in use, for tests.
    var currentServer: MediaStreamServer? { running.withLock { $0.server } }

    private func serialized<T: Sendable>(_ body: () throws(PlaybackError) -> T) throws(PlaybackError) -> T {
        try commandTurn.withLock { _ throws(PlaybackError) in try body() }
    }

    /// Starts the endpoint and a player showing the loaded video at `position`, unless one runs already.
    /// Returns true when it started one (so the caller need not drive it further).
    private func startPlayerIfNeeded(at position: Double, paused: Bool) -> Bool {
        guard let media = engine.loadedMedia else { return false }
        if let current = running.withLock({ $0.player }), current.isRunning { return false }
        tearDownPlayer()
        let player = launcher.make()
        guard let name = player.name else { return false }
        let server = MediaStreamServer(source: media.source, name: media.name, contentType: media.contentType, limits: streamLimits)
        do {
            try server.start()
        } catch {
            running.withLock { $0.report = PlayerReport(name: name, running: false, problem: error) }
            return false
        }
        player.setEventHandler { [weak self] event in self?.playerDid(event) }
        running.withLock {
            $0.player = player
            $0.server = server
            $0.report = PlayerReport(name: name, running: true, streamURL: server.url)
        }
        do {
            try player.open(url: server.url, title: media.name, at: position, paused: paused)
            return true
        } catch {
            playerFailed(error)
            return false
        }
    }

    /// Sends a command to the running player; a failure is reported in status, never thrown.
    private func drive(_ command: PlayerCommand) {
        guard let player = running.withLock({ $0.player }), player.isRunning else { return }
        do throws(PlaybackError) {
            switch command {
            case .setPaused(let paused): try player.setPaused(paused)
            case .seek(let seconds, let landing): try player.seek(to: seconds, landing: landing)
            }
        } catch {
            playerFailed(error)
        }
    }

    private enum PlayerCommand {
        case setPaused(Bool)
        case seek(to: Double, landing: SeekLanding)
    }

    private func playerFailed(_ error: PlaybackError) {
        let player = running.withLock { running -> (any Player)? in
            running.report?.running = false
            running.report?.problem = error
            return running.player
        }
        player?.close()
    }

    /// Takes the player's own account of where it is into the engine; returns it.
    @discardableResult
    private func sync() -> PlayerObservation? {
        guard let player = running.withLock({ $0.player }), player.isRunning else { return nil }
        guard let observed = player.observe() else {
            if player.isRunning { running.withLock { $0.report?.problem = .player(player.name ?? "the player", .doesNotAnswer) } }
            return nil
        }
        engine.playerReported(position: observed.position, paused: observed.paused, reachedEnd: observed.reachedEnd)
        return observed
    }

    private func playerDid(_ event: PlayerEvent) {
        switch event {
        case .reachedEnd:
            engine.playerReported(reachedEnd: true)
        case .exited:
            running.withLock { running in
                running.report?.running = false
                if let name = running.report?.name { running.report?.problem = .player(name, .exitedByItself) }
            }
        }
    }

    private func tearDownPlayer() {
        let (player, server) = running.withLock { running -> ((any Player)?, MediaStreamServer?) in
            defer { running = Running() }
            return (running.player, running.server)
        }
        player?.close()
        server?.stop()
    }

    private func currentStatus() -> PlaybackStatus {
        var status = engine.status()!
        status.player = running.withLock { $0.report }
        return status
    }
}
