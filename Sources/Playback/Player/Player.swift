/// Something the user watches the video in, driven by the playback controller: an external player (mpv), or
/// nothing at all. The engine's clock stays the fallback truth; a player that answers overrides the position.
public protocol Player: AnyObject, Sendable {
    /// "mpv"; nil for the null player (nothing to report in status).
    var name: String? { get }

    /// Opens the stream at `url` (titled `title`) at `position` seconds, paused or playing, and returns once
    /// it shows that position.
    func open(url: String, title: String, at position: Double, paused: Bool) throws(PlaybackError)

    /// Pauses or resumes.
    func setPaused(_ paused: Bool) throws(PlaybackError)

    /// Shows the frame at `seconds` (the engine has already chosen the frame and passes its time) and returns
    /// once it does: with `.frame`, decoding from the keyframe before it; with `.keyframe`, `seconds` is a
    /// keyframe's time and no decoding past it is needed.
    func seek(to seconds: Double, landing: SeekLanding) throws(PlaybackError)

    /// What the player itself says: its position and whether it is paused; nil when it cannot tell.
    func observe() -> PlayerObservation?

    /// True while the player process runs.
    var isRunning: Bool { get }

    /// Ends the player (and its process); safe to call more than once.
    func close()

    /// Called from the player's own thread when it reaches the end of the file or exits by itself.
    func setEventHandler(_ handler: @escaping @Sendable (PlayerEvent) -> Void)
}

/// What a player reported when asked.
public struct PlayerObservation: Sendable, Equatable {
    public var position: Double?
    public var paused: Bool?
    public var reachedEnd: Bool

    public init(position: Double?, paused: Bool?, reachedEnd: Bool) {
        self.position = position
        self.paused = paused
        self.reachedEnd = reachedEnd
    }
}

/// Something a player did on its own.
public enum PlayerEvent: Sendable, Equatable {
    /// Playback reached the end of the file.
    case reachedEnd
    /// The player exited (its window closed, or it crashed).
    case exited
}

/// No player: playback runs on the engine's clock alone.
public final class NullPlayer: Player {
    public init() {}
    public var name: String? { nil }
    public func open(url: String, title: String, at position: Double, paused: Bool) {}
    public func setPaused(_ paused: Bool) {}
    public func seek(to seconds: Double, landing: SeekLanding) {}
    public func observe() -> PlayerObservation? { nil }
    public var isRunning: Bool { false }
    public func close() {}
    public func setEventHandler(_ handler: @escaping @Sendable (PlayerEvent) -> Void) {}
}

/// How the controller gets a player for each video it plays.
public struct PlayerLauncher: Sendable {
    let make: @Sendable () -> any Player

    /// A launcher from any factory (tests use it to inject their own player).
    public init(_ make: @escaping @Sendable () -> any Player) {
        self.make = make
    }

    /// Never a player.
    public static let none = PlayerLauncher { NullPlayer() }

    /// mpv when it is installed (found on PATH, or at `executable`), else no player. `extraArguments` go
    /// after ours, so they can override (tests pass `--no-config --vo=null --ao=null`).
    public static func mpv(executable: String? = nil, extraArguments: [String] = []) -> PlayerLauncher {
        PlayerLauncher {
            guard let path = executable ?? MPVPlayer.locate() else { return NullPlayer() }
            return MPVPlayer(executable: path, extraArguments: extraArguments)
        }
    }

    /// mpv if installed, else none.
    public static var automatic: PlayerLauncher { .mpv() }
}
