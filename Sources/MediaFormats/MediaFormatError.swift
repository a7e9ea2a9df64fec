/// Why a media file could not be read: every malformed, truncated or oversized input ends here, never in a crash.
public struct MediaFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broad reason, for callers that react differently to each (for example, retry I/O but not corruption).
    public enum Kind: Sendable, Equatable {
        /// The data ends before a structure it announces.
        case truncated
        /// A field contradicts the format or the data around it (a lying size, a bad marker, a loop).
        case malformed
        /// A count or size exceeds a sane bound, so reading it would cost too much memory or time.
        case limitExceeded
        /// Well-formed, but not something this reader handles (for example, no movie box at all).
        case unsupported
        /// Reading the bytes themselves failed (file system or device error).
        case io
    }

    /// The broad reason.
    public let kind: Kind
    /// A sentence a user can act on, naming the structure involved.
    public let message: String
    /// Where in the file the problem was found, when known.
    public let offset: UInt64?

    /// An error of `kind` with a user-readable `message`, found at `offset` in the file when known.
    public init(_ kind: Kind, _ message: String, offset: UInt64? = nil) {
        self.kind = kind
        self.message = message
        self.offset = offset
    }

    /// The message, with the byte offset when known.
    public var description: String {
        if let offset { return "\(message) (at byte \(offset))" }
        return message
    }

    static func truncated(_ what: String, offset: UInt64? = nil) -> MediaFormatError {
        MediaFormatError(.truncated, "the file ends inside \(what)", offset: offset)
    }

    static func malformed(_ message: String, offset: UInt64? = nil) -> MediaFormatError {
        MediaFormatError(.malformed, message, offset: offset)
    }

    static func limit(_ message: String, offset: UInt64? = nil) -> MediaFormatError {
        MediaFormatError(.limitExceeded, message, offset: offset)
    }
}
