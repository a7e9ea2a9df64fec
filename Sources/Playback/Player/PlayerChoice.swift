import Foundation
import POSIX

/// What the shell's surroundings say about playback, read once from the environment: whether there is a
/// display to show a player window on, extra arguments for mpv, and whether the terminal takes the prompt's
/// `▶ ‖ ■` symbols.
public struct PlaybackEnvironment: Sendable, Equatable {
    /// `DISPLAY` or `WAYLAND_DISPLAY` is set: a player window can be shown.
    public var hasDisplay: Bool
    /// `MEDIASHELL_MPV_ARGS`, split at spaces, passed to mpv after ours (`--vo=null --ao=null` for tests,
    /// `--geometry=50%` for a smaller window).
    public var mpvArguments: [String]
    /// The locale's character set is UTF-8 (`LC_ALL`, else `LC_CTYPE`, else `LANG`); the prompt falls back to
    /// ASCII (`>`, `||`, `[]`) otherwise.
    public var unicode: Bool

    public init(hasDisplay: Bool = false, mpvArguments: [String] = [], unicode: Bool = true) {
        self.hasDisplay = hasDisplay
        self.mpvArguments = mpvArguments
        self.unicode = unicode
    }

    public init(environment: [String: String]) {
        let set = { (name: String) in environment[name].map { !$0.isEmpty } ?? false }
        hasDisplay = set("DISPLAY") || set("WAYLAND_DISPLAY")
        mpvArguments = (environment["MEDIASHELL_MPV_ARGS"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        let codeset = locale.lowercased()
        unicode = codeset.contains("utf-8") || codeset.contains("utf8")
    }

    /// The process's own environment.
    public static var current: PlaybackEnvironment {
        PlaybackEnvironment(environment: ProcessInfo.processInfo.environment)
    }
}

/// Which external player playback shows the video in (the shell's `player` setting).
public enum PlayerSetting: String, Sendable, CaseIterable {
    /// mpv at an interactive prompt with a display to show it on; none in scripts and pipes.
    case auto
    /// mpv whenever it is installed, scripts included.
    case mpv
    /// Never a player: playback runs on the clock alone.
    case none
}

/// Picks the external player each time `play` starts one, from the `player` setting at that moment:
/// `auto` shows mpv at an interactive prompt with a display (a script on a field laptop or in cron gets no
/// window it did not ask for), `mpv` whenever mpv is installed, `none` never.
public final class PlayerChoice: Sendable {
    private let interactive: Bool
    private let environment: PlaybackEnvironment
    private let state: Locked<State>

    private struct State {
        var setting: PlayerSetting
        weak var lastMPV: MPVPlayer?
    }

    public init(setting: PlayerSetting, interactive: Bool, environment: PlaybackEnvironment) {
        state = Locked(State(setting: setting))
        self.interactive = interactive
        self.environment = environment
    }

    /// For the controller: asks this choice for every player it starts.
    public var launcher: PlayerLauncher {
        PlayerLauncher { [self] in make() }
    }

    /// Takes the `player` setting as it is now (the interpreter calls this before each `play`).
    public func update(_ setting: PlayerSetting) {
        state.withLock { $0.setting = setting }
    }

    /// Why `play` shows no player window with the current setting, or nil when it shows one.
    public var reasonForNoPlayer: NoPlayerReason? {
        switch state.withLock({ $0.setting }) {
        case .none: return .setToNone
        case .mpv: return MPVPlayer.locate() == nil ? .mpvNotInstalled : nil
        case .auto:
            if !interactive { return .notInteractive }
            if !environment.hasDisplay { return .noDisplay }
            return MPVPlayer.locate() == nil ? .mpvNotInstalled : nil
        }
    }

    /// The process id of the mpv started last, while it lives (tests check that nothing is left behind).
    public var playerProcessID: Int32? { state.withLock { $0.lastMPV }?.processID }

    private func make() -> any Player {
        guard reasonForNoPlayer == nil, let executable = MPVPlayer.locate() else { return NullPlayer() }
        let player = MPVPlayer(executable: executable, extraArguments: environment.mpvArguments)
        state.withLock { $0.lastMPV = player }
        return player
    }
}
