/// Why a playback command could not do what was asked, with a message a user can act on.
public struct PlaybackError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No video is loaded (`play NAME` first).
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

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    static let nothingLoaded = PlaybackError(.nothingLoaded, "no video is loaded: play NAME first")
}
