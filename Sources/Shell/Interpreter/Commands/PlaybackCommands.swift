import MediaFormats
import MediaManager
import Playback

/// play, pause, resume, stop, seek, step, status: the shell's side of the Playback module. `play` resolves
/// the camera file and reads its movie box through partial reads (the file is streamed, never downloaded);
/// every command then goes to the `PlaybackController` and prints one line saying where playback is.
/// Arguments are already checked by the command table (`seek` positions parse as `SeekPosition`).
extension Interpreter {
    func playbackCommand(_ invocation: Invocation) throws {
        switch invocation.id {
        case .play:
            try play(invocation)
        case .pause:
            let status = try playback.pause()
            output.line(
                "paused \(displayName(status)) at \(TimeText.format(status.position)) "
                    + "(frame \(status.frameIndex) of \(status.frameCount))")
        case .resume:
            let status = try playback.resume()
            output.line("playing \(displayName(status)) from \(TimeText.format(status.position))")
        case .stop:
            let status = try playback.stop()
            output.line("stopped \(displayName(status)); 'play' starts it again")
        case .seek:
            guard let word = invocation.arguments.first, let position = SeekPosition(word.text) else { return }
            output.line(symbols(try playback.seek(SeekTarget(position)).description))
        case .step:
            let frames = invocation.arguments.first.flatMap { Int($0.text) } ?? 1
            output.line(symbols(try playback.step(frames).description))
        case .status:
            playbackStatus(json: invocation.has(.json))
        default:
            break
        }
    }

    /// `play NAME` loads NAME and plays it from the start (and selects it); a bare `play` goes on with the
    /// video loaded (from where it paused, or from the start once stopped or ended), or loads the selected
    /// file when another one is selected.
    private func play(_ invocation: Invocation) throws {
        playerChoice.update(state.settings.player)
        if invocation.arguments.isEmpty, playback.isLoaded, let loaded = loadedVideo,
            state.selection == nil || state.selection?.file.path == loaded.path
        {
            let status = try playback.play()
            output.line("playing \(displayName(status)) from \(TimeText.format(status.position))" + playerNote(status))
            reportPlayerProblem(status)
            return
        }
        let session = try requireCamera()
        let catalog = try loadedCatalog()
        let file: MediaFile
        if let word = invocation.arguments.first {
            file = try oneFile(for: word, in: catalog, command: "play")
        } else {
            file = try selectedFile(in: catalog)
        }
        let name = SafeText.display(file.name)
        guard file.kind.isVideo else {
            throw CommandError("\(name) is not a video (play takes MP4 and MOV files)")
        }
        guard session.camera.summary.canReadRanges else {
            throw CommandError(
                "this camera cannot read parts of files, so \(name) cannot be streamed: fetch it and play the copy")
        }
        let media: PlaybackMedia
        do {
            media = try session.playbackMedia(for: file)
        } catch let error as PlaybackError {
            throw CommandError(error.message)
        } catch {
            if Self.isDisconnect(error) { throw error }
            throw CommandError("cannot read \(name) as a video: \(Self.message(for: error))")
        }
        state.select(file, downloaded: partialSize(of: file) ?? 0)
        let status = try playback.play(media)
        loadedVideo = file
        var line = "playing \(name) (\(TimeText.format(status.duration))"
        if let rate = status.framesPerSecond { line += ", \(FileListing.frameRate(rate))" }
        line += ", \(status.width)x\(status.height) \(status.orientation))"
        output.line(line + playerNote(status))
        if let truncated = status.truncated { report("play: \(name): \(truncated)", severity: .warning) }
        reportPlayerProblem(status)
    }

    /// ` in mpv` when a player shows the video; at a prompt with `player auto`, why none does.
    private func playerNote(_ status: PlaybackStatus) -> String {
        if let player = status.player, player.running { return " in \(player.name)" }
        guard isInteractive, status.player == nil, state.settings.player == .auto,
            let reason = playerChoice.reasonForNoPlayer
        else { return "" }
        return "; no player window (\(reason))"
    }

    /// A player asked for that did not start is a warning, not a failure: playback goes on by the clock.
    private func reportPlayerProblem(_ status: PlaybackStatus) {
        if let player = status.player, !player.running {
            var problem = player.problem ?? "not running"
            if !problem.hasPrefix(player.name) { problem = "\(player.name): \(problem)" }
            report("play: \(problem); playback goes on without it", severity: .warning)
        } else if status.player == nil, state.settings.player == .mpv, let reason = playerChoice.reasonForNoPlayer {
            report("play: \(reason); playback goes on without a player", severity: .warning)
        }
    }

    /// `status`: one line, or the stable JSON (sorted keys) of `PlaybackStatus`; `{"state":"unloaded"}` when
    /// no video is loaded.
    private func playbackStatus(json: Bool) {
        guard let status = playback.status() else {
            output.line(json ? #"{"state":"unloaded"}"# : "no video loaded ('play NAME' starts one)")
            return
        }
        if json {
            output.line(status.json())
        } else {
            output.line(symbols(SafeText.display(status.line), state: status.state))
        }
    }

    /// The loaded video's name, safe to print.
    private func displayName(_ status: PlaybackStatus) -> String {
        SafeText.display(status.media)
    }

    /// `text` as the terminal can show it: unchanged in a UTF-8 locale, else with ASCII arrows and symbols.
    private func symbols(_ text: String, state: PlaybackState? = nil) -> String {
        guard !playbackEnvironment.unicode else { return text }
        var text = text
        if let state, let range = text.range(of: " \(state.symbol()) ") {
            text.replaceSubrange(range, with: " \(state.symbol(ascii: true)) ")
        }
        return text.replacingOccurrences(of: "→", with: "->")
    }

    /// For the prompt while a video is loaded: `▶ 0:01.2/0:03`, preceded by the video's name when it is not
    /// the selected file. Reads the engine's own state: the prompt never waits on the player.
    var playbackPromptFragment: String? {
        guard let status = playback.engine.status() else { return nil }
        let fragment = status.promptFragment(ascii: !playbackEnvironment.unicode)
        if let loadedVideo, state.selection?.file.path == loadedVideo.path { return fragment }
        return TerminalWidth.truncate(SafeText.display(status.media), to: 20) + " " + fragment
    }

    /// Ends the player and the streaming endpoint and forgets the video (camera closed, `quit`).
    func stopPlayback() {
        playback.shutdown()
        loadedVideo = nil
    }

    /// The process id of the mpv the last `play` started, while it runs (for tests).
    var playerProcessID: Int32? { playerChoice.playerProcessID }
}

extension SeekTarget {
    /// The shell's parsed `seek POS` as the engine takes it.
    init(_ position: SeekPosition) {
        switch position {
        case .absolute(let seconds): self = .absolute(seconds: seconds)
        case .relative(let seconds): self = .relative(seconds: seconds)
        case .percent(let share): self = .percent(share)
        }
    }
}
