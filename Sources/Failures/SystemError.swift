#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A system call that failed: which call, on what, and the errno it left. The one error type of this
/// POSIX seam; each caller turns it into its own error at its own boundary (PTPIP into `PTPError`, Playback into
/// `PlaybackError`), and branches on the call and the errno through the properties below, never on the text.
public struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call that failed: `.open`, `.connect`, `.receive`.
    public let call: Call
    /// What the call was on when that is not a local file: a peer ("127.0.0.1:15740"), a socket option
    /// ("TCP_NODELAY"), a program, a host name.
    public let target: String?
    public let errno: Int32
    /// Replaces the C library's text when there is something more useful to say ("no answer within 5.0 s").
    public let detail: String?
    /// The local file the call was on, when it was on one.
    public let path: String?

    public init(_ call: Call, on target: String? = nil, path: String? = nil, errno: Int32, detail: String? = nil) {
        self.call = call
        self.target = target
        self.path = path
        self.errno = errno
        self.detail = detail
    }

    /// What the C library (or `detail`) says happened: "Permission denied".
    public var reason: String { detail ?? errnoText(errno) }

    /// `open /tmp/x: Permission denied`, `receive from 127.0.0.1:15740: nothing received for 5.0 s`.
    public var description: String {
        if let path { return "\(call) \(path): \(reason)" }
        guard let target else { return "\(call): \(reason)" }
        if call == .resolve { return "cannot resolve host '\(target)': \(reason)" }
        return "\(call)\(call.preposition.map { " \($0)" } ?? "") \(target): \(reason)"
    }

    /// Nothing arrived (or nothing was taken) before the deadline.
    public var isTimeout: Bool { errno == ETIMEDOUT }
    /// The peer closed or reset the connection, or this side shut it down. (EBADF is never here: a
    /// descriptor used after it was released is a bug, and stops the program.)
    public var isConnectionClosed: Bool { [EPIPE, ECONNRESET, ENOTCONN, ESHUTDOWN].contains(errno) }
    /// Nobody listens there (yet): ECONNREFUSED, or ENOENT for a Unix socket path.
    public var isNobodyListening: Bool { errno == ECONNREFUSED || errno == ENOENT }

    /// A wait that ran out.
    public static func timeout(_ call: Call, on target: String? = nil, _ detail: String? = nil) -> SystemError {
        SystemError(call, on: target, errno: ETIMEDOUT, detail: detail)
    }

    /// A call on a socket this side already closed.
    package static func closedLocally(_ call: Call, on target: String?) -> SystemError {
        SystemError(call, on: target, errno: ESHUTDOWN, detail: "socket closed")
    }
}

extension SystemError {
    /// The name of a failed call: an open set, like errno's values, with a constant for each call this
    /// program makes (so callers switch on `.rename`, not on text). Mostly the C function's own name; the
    /// socket transfers are `.receive` and `.send` whatever function did them.
    public struct Call: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }
        public var description: String { rawValue }

        /// The word between the call and its target in a sentence: "receive from 127.0.0.1:15740".
        var preposition: String? {
            switch self {
            case .receive: "from"
            case .send: "to"
            case .accept: "on"
            default: nil
            }
        }

        // Files and folders
        public static let open: Call = "open"
        public static let read: Call = "read"
        public static let write: Call = "write"
        public static let pwrite: Call = "pwrite"
        public static let ftruncate: Call = "ftruncate"
        public static let fsync: Call = "fsync"
        public static let rename: Call = "rename"
        public static let utimensat: Call = "utimensat"
        public static let futimens: Call = "futimens"
        public static let mkdir: Call = "mkdir"
        public static let mkdtemp: Call = "mkdtemp"
        public static let flock: Call = "flock"
        public static let access: Call = "access"
        /// Not a system call: a file written in full (its `.part` renamed) or a record encoded for one.
        public static let commit: Call = "commit"
        public static let encode: Call = "encode"
        // Sockets
        public static let socket: Call = "socket"
        public static let connect: Call = "connect"
        public static let bind: Call = "bind"
        public static let listen: Call = "listen"
        public static let accept: Call = "accept"
        public static let receive: Call = "receive"
        public static let send: Call = "send"
        public static let setsockopt: Call = "setsockopt"
        /// A host name looked up (getaddrinfo).
        public static let resolve: Call = "resolve"
        // Processes and threads
        public static let start: Call = "start"
        public static let waitpid: Call = "waitpid"
        public static let poll: Call = "poll"
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

/// "5.0 s", or "ever" for no limit: for messages about waits.
public func formatSeconds(_ seconds: Double?) -> String {
    guard let seconds else { return "ever" }
    let tenths = (seconds * 10).rounded()
    return "\(Int(tenths) / 10).\(abs(Int(tenths)) % 10) s"
}
