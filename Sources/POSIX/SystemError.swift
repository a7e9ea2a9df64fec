#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A system call that failed: which call, on what, and the errno it left. The one error type of this
/// module; each caller turns it into its own error at its own boundary (PTPIP into `PTPError`, Playback into
/// `PlaybackError`), and branches on the errno through the properties below, never on the text.
public struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call and what it was on: "connect 127.0.0.1:15740", "open(/tmp/x)"; for a local file, the call
    /// alone ("open", "rename") and the file in `path`.
    public let call: String
    public let errno: Int32
    /// Replaces the C library's text when there is something more useful to say ("no answer within 5.0 s").
    public let detail: String?
    /// The local file the call was on, when it was on one.
    public let path: String?

    public init(_ call: String, path: String? = nil, errno: Int32, detail: String? = nil) {
        self.call = call
        self.path = path
        self.errno = errno
        self.detail = detail
    }

    /// What the C library (or `detail`) says happened: "Permission denied".
    public var reason: String { detail ?? errnoText(errno) }

    public var description: String { path.map { "\(call) \($0): \(reason)" } ?? "\(call): \(reason)" }

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
