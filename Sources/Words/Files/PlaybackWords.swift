import CameraFacts
import Foundation
import TextKit

/// What `play` says of the video it started.
public enum PlaybackWords {
    /// `playing DJI_0003.MP4 (0:12, 30 fps, 1920x1080 landscape)`: what the playback's status says of the clip.
    public static func playing(
        _ file: MediaFile, duration: Double, framesPerSecond: Double?, width: Int, height: Int, orientation: String
    ) -> String {
        var line = "playing \(SafeText.display(file.name)) (\(TimeText.format(duration))"
        if let rate = framesPerSecond { line += ", \(FileListing.frameRate(rate))" }
        return line + ", \(width)x\(height) \(orientation))"
    }

    /// What became of a player that does not run, naming it: `mpv exited at start: …`, `mpv: exited (window
    /// closed?); playback goes on without it`, `mpv: not running`.
    public static func problem(of player: PlayerReport) -> String {
        let problem = player.problem.map { ErrorWords.sentence(for: $0) } ?? "not running"
        return problem.hasPrefix(player.name) ? problem : "\(player.name): \(problem)"
    }

    /// `text` as the terminal can show it: unchanged in a UTF-8 locale (`unicode`), else with ASCII arrows
    /// and the ASCII symbol of `state`.
    public static func symbols(_ text: String, state: PlaybackState? = nil, unicode: Bool) -> String {
        guard !unicode else { return text }
        var text = text
        if let state, let range = text.range(of: " \(state.symbol()) ") {
            text.replaceSubrange(range, with: " \(state.symbol(ascii: true)) ")
        }
        return text.replacingOccurrences(of: "→", with: "->")
    }
}

extension NoPlayerReason {
    /// `set player none`, `mpv is not installed`, `not at an interactive prompt`, `no display`.
    public var words: String {
        switch self {
        case .setToNone: "set player none"
        case .mpvNotInstalled: "mpv is not installed"
        case .notInteractive: "not at an interactive prompt"
        case .noDisplay: "no display"
        }
    }
}
