import Failures
import MediaFormats
import POSIX

/// Why a playback command could not do what was asked, as data: a kind to switch on, the facts in
/// playback's words, and for a refused command what was asked in which state (the shell says what to do).
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

    public let kind: Kind
    public let message: String
    /// Set for `.wrongState`.
    public let refusal: Refusal?
    /// Why the video could not be read, when that is why it cannot play.
    public let cause: MediaFormatError?

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
        refusal = nil
        cause = nil
    }

    /// `name` cannot play because reading it failed with `cause`.
    init(_ kind: Kind, name: String, cause: MediaFormatError) {
        self.kind = kind
        message = "\(name): \(cause.problem)"
        refusal = nil
        self.cause = cause
    }

    /// `operation` does not apply to `name` in `state`; `message` says so.
    init(refusing operation: Refusal.Operation, of name: String, in state: PlaybackState, _ message: String) {
        kind = .wrongState
        self.message = message
        refusal = Refusal(operation: operation, state: state, name: name)
        cause = nil
    }

    public var description: String { message }

    public var category: FailureCategory {
        switch kind {
        case .nothingLoaded, .wrongState, .invalidArgument: .invalidRequest
        case .notAVideo, .unsupported: .notSupported
        case .player, .stream: .localIO
        }
    }

    static let nothingLoaded = PlaybackError(.nothingLoaded, "no video is loaded")
}
