import Failures
import MediaFormats

/// Why a playback command could not do what was asked, as facts: the reason (which names the file, the
/// operation and the state, the system call that failed, the player and what it did), a kind to switch on,
/// and a `description` built from them for logs. The words a user reads are `ErrorWords`' (module Words),
/// which adds what to do.
public struct PlaybackError: Error, Sendable, Equatable, CustomStringConvertible, CategorizedError {
    public enum Kind: Sendable, Equatable {
        /// No video is loaded.
        case nothingLoaded
        /// The file has no video track, or one without frames.
        case notAVideo
        /// The command does not apply in the current state (pause while stopped, step while playing).
        case wrongState
        /// A seek or step argument that is not a number.
        case invalidArgument
        /// The external player failed to start or answer.
        case player
        /// The streaming endpoint could not be set up.
        case stream
        /// The video uses something playback does not handle (an edit list at a rate other than 1).
        case unsupported
    }

    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// No video is loaded.
        case nothingLoaded
        /// The command does not apply to the video in its state.
        case refused(Refusal)
        /// A seek whose target is not a finite number of seconds.
        case seekTargetNotANumber
        /// The file named `name` has no video track.
        case noVideoTrack(name: String)
        /// The file named `name` has a video track that shows no frame, for `why`.
        case noFrames(name: String, why: NoFrames)
        /// The presentation timeline of `name` cannot be played: `cause` says why (an edit at a rate other than 1).
        case unplayableTimeline(name: String, cause: MediaFormatError)
        /// The loopback streaming endpoint could not be set up: binding its socket or starting its thread failed.
        case streamEndpoint(SystemError)
        /// The external player named `player` ("mpv") failed.
        case player(String, PlayerFailure)
    }

    /// Why a video track shows no frame.
    public enum NoFrames: Sendable, Equatable {
        /// The file is cut off before its first frame.
        case cutOffBeforeFirstFrame
        /// Its edit list shows none.
        case editListShowsNone
    }

    /// What a `.wrongState` error refused: the operation asked of `name` while it was in `state`.
    public struct Refusal: Sendable, Equatable {
        public enum Operation: Sendable, Equatable { case pause, resume, step }
        public let operation: Operation
        public let state: PlaybackState
        public let name: String

        public init(operation: Operation, state: PlaybackState, name: String) {
            self.operation = operation
            self.state = state
            self.name = name
        }
    }

    /// What the external player did wrong, or what became of it.
    public enum PlayerFailure: Sendable, Equatable {
        /// Starting it failed: making its folder or socket, spawning it, or connecting to it.
        case didNotStart(SystemError)
        /// It exited before it opened its control socket; `log` holds the last lines it wrote (maybe none).
        case exitedAtStart(log: [String])
        /// It exited while it opened the video; `log` holds the last lines it wrote (maybe none).
        case exitedWhileOpening(log: [String])
        /// Its control socket exists but refused the connection until the start deadline.
        case refusedControlSocket
        /// It did not do `what` within `seconds`.
        case timedOut(Wait, seconds: Int)
        /// It could not open the stream; `why` is the player's own reason (mpv's `file_error`).
        case couldNotOpenStream(why: String)
        /// A command was asked of it while none runs.
        case notRunning
        /// It exited while a command waited for it.
        case exited
        /// A command sent to it failed.
        case command(PlayerCommandFailure)
        /// It no longer answers when asked where it is.
        case doesNotAnswer
        /// It exited by itself (its window closed, or it crashed) while playback went on.
        case exitedByItself
    }

    /// What the player was waited for.
    public enum Wait: Sendable, Equatable {
        /// To open its control socket.
        case controlSocket
        /// To show the first frame of the video.
        case firstFrame
        /// To finish a seek.
        case seek
    }

    public let reason: Reason

    public init(_ reason: Reason) {
        self.reason = reason
    }

    public var kind: Kind {
        switch reason {
        case .nothingLoaded: .nothingLoaded
        case .refused: .wrongState
        case .seekTargetNotANumber: .invalidArgument
        case .noVideoTrack, .noFrames: .notAVideo
        case .unplayableTimeline: .unsupported
        case .streamEndpoint: .stream
        case .player: .player
        }
    }

    /// Set for `.wrongState`.
    public var refusal: Refusal? {
        if case .refused(let refusal) = reason { return refusal }
        return nil
    }

    /// Why the video could not be read, when that is why it cannot play.
    public var cause: MediaFormatError? {
        if case .unplayableTimeline(_, let cause) = reason { return cause }
        return nil
    }

    public var category: FailureCategory {
        switch kind {
        case .nothingLoaded, .wrongState, .invalidArgument: .invalidRequest
        case .notAVideo, .unsupported: .notSupported
        case .player, .stream: .localIO
        }
    }

    package static let nothingLoaded = PlaybackError(.nothingLoaded)

    /// `operation` does not apply to `name` in `state`.
    package static func refusing(_ operation: Refusal.Operation, of name: String, in state: PlaybackState) -> PlaybackError {
        PlaybackError(.refused(Refusal(operation: operation, state: state, name: name)))
    }

    /// A failure of the player named `name`.
    package static func player(_ name: String, _ failure: PlayerFailure) -> PlaybackError {
        PlaybackError(.player(name, failure))
    }
}

/// Why a command sent to the player got no good answer.
public enum PlayerCommandFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connection to the player is closed.
    case closed
    /// No answer to `command` came in time.
    case timedOut(command: String)
    /// The player refused `command`; `error` is its own reason.
    case refused(command: String, error: String)
    /// `command` could not be encoded as JSON.
    case unencodable(command: String)

    public var description: String {
        switch self {
        case .closed: "the player's connection is closed"
        case .timedOut(let command): "the player did not answer '\(command)' in time"
        case .refused(let command, let error): "the player refused '\(command)': \(error)"
        case .unencodable(let command): "the player refused '\(command)': not JSON"
        }
    }
}
