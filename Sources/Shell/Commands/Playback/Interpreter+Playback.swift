import Foundation
import MediaManager
import Playback
import TerminalKit
import Words

/// What the playback commands and the prompt share: the shell's side of the Playback module. Every command
/// goes to the `PlaybackController` and prints one line saying where playback is.
extension PlaybackContext {
    /// The loaded video's name, safe to print.
    func displayName(_ status: PlaybackStatus) -> String {
        SafeText.display(status.media)
    }

    /// `text` as the terminal can show it (`PlaybackWords.symbols`).
    func symbols(_ text: String, state: PlaybackState? = nil) -> String {
        PlaybackWords.symbols(text, state: state, unicode: playbackEnvironment.unicode)
    }

    /// Ends the player and the streaming endpoint and forgets the video (camera closed, `quit`).
    func stopPlayback() {
        playback.shutdown()
        loadedVideo = nil
    }
}

extension Interpreter {
    /// For the prompt while a video is loaded: `▶ 0:01.2/0:03`, preceded by the video's name when it is not
    /// the selected file. Reads the engine's own state: the prompt never waits on the player.
    var playbackPromptFragment: String? {
        guard let status = playback.engine.status() else { return nil }
        let fragment = status.promptFragment(ascii: !playbackEnvironment.unicode)
        if let loadedVideo, promptSelection != nil, state.selection?.file.path == loadedVideo.path { return fragment }
        return TerminalWidth.truncate(SafeText.display(status.media), to: 20) + " " + fragment
    }

    /// The process id of the mpv the last `play` started, while it runs (for tests).
    var playerProcessID: Int32? { playerChoice.playerProcessID }
}
