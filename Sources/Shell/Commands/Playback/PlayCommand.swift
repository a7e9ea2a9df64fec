import CommandKit
import MediaFormats
import MediaManager
import Playback
import TerminalKit
import Words

/// play [NAME]: loads NAME (and selects it) and plays it from the start, streaming it through partial reads
/// (never downloading it); a bare `play` goes on with the video loaded (from where it paused, or from the
/// start once stopped or ended), or loads the selected file when another one is selected.
struct PlayCommand: ShellCommand {
    let spec = CommandSpec(
        "play", area: .playback, arguments: [ArgumentSpec("NAME", .remoteName, .optional)],
        summary: "play a video from the card",
        details: """
            Plays NAME (and selects it) from the start, streaming it from the camera without downloading it; \
            with no NAME, goes on with the loaded video, or plays the selected file. The video shows in mpv \
            when `set player` allows it; without a player, playback runs on the shell's clock. The prompt \
            shows the state while a video is loaded.
            """,
        examples: ["play DJI_0003.MP4", "play; seek 50%; pause"])

    func run(_ invocation: Invocation, in shell: any PlaybackContext) throws -> CommandOutcome {
        shell.playerChoice.update(shell.state.settings.player)
        if invocation.arguments.isEmpty, shell.playback.isLoaded, let loaded = shell.loadedVideo,
            shell.state.selection == nil || shell.state.selection?.file.path == loaded.path
        {
            let status = try shell.playback.play()
            shell.output.note(
                "playing \(shell.displayName(status)) from \(TimeText.format(status.position))"
                    + playerNote(status, shell))
            reportPlayerProblem(status, shell)
            return .success
        }
        let file = try fileToPlay(invocation, shell)
        let media = try movie(of: file, shell)
        shell.state.select(file, downloaded: shell.partialSize(of: file) ?? 0)
        let status = try shell.playback.play(media)
        shell.loadedVideo = file
        let playing = PlaybackWords.playing(
            file, duration: status.duration, framesPerSecond: status.framesPerSecond, width: status.width,
            height: status.height, orientation: status.orientation)
        shell.output.note(playing + playerNote(status, shell))
        if let truncated = status.truncated {
            shell.report("play: \(SafeText.display(file.name)): \(truncated)", severity: .warning)
        }
        reportPlayerProblem(status, shell)
        return .success
    }

    /// The video NAME names, or the selected file; refused when it is not a video.
    private func fileToPlay(_ invocation: Invocation, _ shell: any PlaybackContext) throws -> MediaFile {
        let catalog = try shell.loadedCatalog()
        let file: MediaFile
        if let word = invocation.arguments.first {
            file = try shell.oneFile(for: word, in: catalog, command: "play")
        } else {
            file = try shell.selectedFile(in: catalog)
        }
        guard file.kind.isVideo else {
            throw CommandError("\(SafeText.display(file.name)) is not a video (play takes MP4 and MOV files)")
        }
        return file
    }

    /// The file's movie box read through partial reads, ready for the engine.
    private func movie(of file: MediaFile, _ shell: any PlaybackContext) throws -> PlaybackMedia {
        let session = try shell.requireCamera()
        let name = SafeText.display(file.name)
        guard session.camera.summary.canReadRanges else {
            throw CommandError(
                "this camera cannot read parts of files, so \(name) cannot be streamed: fetch it and play the copy")
        }
        do {
            return try session.playbackMedia(for: file)
        } catch let error as PlaybackError {
            throw CommandError(ErrorWords.sentence(for: error))
        } catch {
            if Interpreter.isDisconnect(error) { throw error }
            throw CommandError("cannot read \(name) as a video: \(Interpreter.message(for: error))")
        }
    }

    /// ` in mpv` when a player shows the video; at a prompt with `player auto`, why none does.
    private func playerNote(_ status: PlaybackStatus, _ shell: any PlaybackContext) -> String {
        if let player = status.player, player.running { return " in \(player.name)" }
        guard shell.isInteractive, status.player == nil, shell.state.settings.player == .auto,
            let reason = shell.playerChoice.reasonForNoPlayer
        else { return "" }
        return "; no player window (\(reason.words))"
    }

    /// A player asked for that did not start is a warning, not a failure: playback goes on by the clock.
    private func reportPlayerProblem(_ status: PlaybackStatus, _ shell: any PlaybackContext) {
        if let player = status.player, !player.running {
            shell.report("play: \(PlaybackWords.problem(of: player)); playback goes on without it", severity: .warning)
        } else if status.player == nil, shell.state.settings.player == .mpv,
            let reason = shell.playerChoice.reasonForNoPlayer
        {
            shell.report("play: \(reason.words); playback goes on without a player", severity: .warning)
        }
    }
}
