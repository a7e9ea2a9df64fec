import MediaFormats

/// The facts of a playback error in one line, for logs and for `status` (whose player problem is one):
/// `DJI_0003.MP4 is stopped: nothing to pause`, `mpv exited at start: Error parsing option`. `ErrorWords`
/// starts from it and adds what to do.
extension PlaybackError {
    public var description: String {
        switch reason {
        case .nothingLoaded: "no video is loaded"
        case .refused(let refusal): refusal.description
        case .seekTargetNotANumber: "seek needs a number of seconds"
        case .noVideoTrack(let name): "\(name) has no video track"
        case .noFrames(let name, let why):
            "\(name) has a video track without frames (\(why == .cutOffBeforeFirstFrame ? "the file is cut off before its first frame" : "its edit list shows none"))"
        case .unplayableTimeline(let name, let cause): "\(name): \(cause.problem)"
        case .streamEndpoint(let failure): "cannot open the streaming endpoint: \(failure)"
        case .player(let player, let failure): Self.words(for: failure, of: player)
        }
    }

    private static func words(for failure: PlayerFailure, of player: String) -> String {
        switch failure {
        case .didNotStart(let failure): "\(player) did not start: \(failure)"
        case .exitedAtStart(let log): "\(player) exited at start" + tail(log)
        case .exitedWhileOpening(let log): "\(player) exited while opening the video" + tail(log)
        case .refusedControlSocket: "\(player) refused its control socket"
        case .timedOut(.controlSocket, let seconds): "\(player) did not open its control socket in \(seconds) s"
        case .timedOut(.firstFrame, let seconds): "\(player) did not show the video in \(seconds) s"
        case .timedOut(.seek, let seconds): "\(player) did not finish seeking in \(seconds) s"
        case .couldNotOpenStream(let why): "\(player) could not open the stream: \(why)"
        case .notRunning: "\(player) is not running"
        case .exited: "\(player) exited"
        case .command(let failure): "\(player): \(failure)"
        case .doesNotAnswer: "\(player) does not answer"
        case .exitedByItself: "exited (window closed?); playback goes on without it"
        }
    }

    /// `: line | line | line`, or nothing when the player wrote nothing.
    private static func tail(_ log: [String]) -> String {
        log.isEmpty ? "" : ": " + log.joined(separator: " | ")
    }
}

extension PlaybackError.Refusal: CustomStringConvertible {
    /// `DJI_0003.MP4 is stopped: nothing to pause`, `DJI_0003.MP4 has ended`, `DJI_0003.MP4 is playing: steps
    /// are taken while paused`.
    public var description: String {
        let now = state == .ended ? "\(name) has ended" : "\(name) is \(state.rawValue)"
        switch operation {
        case .pause: return now + ": nothing to pause"
        case .resume: return now
        case .step: return now + ": steps are taken while paused"
        }
    }
}
