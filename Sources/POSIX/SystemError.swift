#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A system call that failed: which call, on what, and the errno it left. The one error type of this
/// module; each caller turns it into its own error at its own boundary (PTPIP into `PTPError`, Playback into
/// `PlaybackError`), and branches on the errno through the properties below, never on the text.
public struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call and what it was on: "connect 127.0.0.1:15740", "open(/tmp/x)".
    public let call: String
    public let errno: Int32
    /// Replaces the C library's text when there is something more useful to say ("no answer within 5.0 s").
    public let detail: String?

    public init(_ call: String, errno: Int32, detail: String? = nil) {
        self.call = call
        self.errno = errno
        self.detail = detail
    }

    public var description: String { "\(call): \(detail ?? errnoText(errno))" }

    /// Nothing arrived (or nothing was taken) before the deadline.
    public var isTimeout: Bool { errno == ETIMEDOUT }
    /// The peer closed or reset the connection, or this side shut it down. (EBADF is never here: a
    /// descriptor used after it was released is a bug, and stops the program.)
    public var isConnectionClosed: Bool { [EPIPE, ECONNRESET, ENOTCONN, ESHUTDOWN].contains(errno) }
    /// Nobody listens there (yet): ECONNREFUSED, or ENOENT for a Unix socket path.
    public var isNobodyListening: Bool { errno == ECONNREFUSED || errno == ENOENT }

    /// A wait that ran out.
    public static func timeout(_ call: String, _ detail: String? = nil) -> SystemError {
        SystemError(call, errno: ETIMEDOUT, detail: detail)
    }

    /// A call on a socket this side already closed.
    static func closedLocally(_ call: String) -> SystemError {
        SystemError(call, errno: ESHUTDOWN, detail: "socket closed")
    }
}

/// The C library's text for an errno value ("Connection refused").
public func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }

extension SystemError: CategorizedError {
    /// A closed or reset connection is `.disconnected`, an expired wait `.timedOut`, everything else the
    /// local system's refusal.
    public var category: FailureCategory {
        if isConnectionClosed { return .disconnected }
        if isTimeout { return .timedOut }
        if errno == EBUSY || errno == EAGAIN { return .busy }
        if errno == EEXIST { return .alreadyExists }
        if errno == ENOENT { return .notFound }
        return .localIO
    }
}
