import MediaManager
import Playback
import TerminalKit

/// What `play` says of the video it started.
public enum PlaybackWords {
    /// `playing DJI_0003.MP4 (0:12, 30 fps, 1920x1080 landscape)`.
    public static func playing(_ file: MediaFile, _ status: PlaybackStatus) -> String {
        var line = "playing \(SafeText.display(file.name)) (\(TimeText.format(status.duration))"
        if let rate = status.framesPerSecond { line += ", \(FileListing.frameRate(rate))" }
        return line + ", \(status.width)x\(status.height) \(status.orientation))"
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
