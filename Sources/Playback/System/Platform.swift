// The one file of this module that calls the C library: sockets (TCP on loopback, Unix, socket pairs), poll,
// process spawning and reaping, inotify, temporary folders, the monotonic clock.
// Everything above it speaks `StreamSocket`, `ChildProcess`, `CreationWatch` and `SystemCallFailure`.
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// MARK: errno

/// A system call that failed: which one, on what, and the errno it left.
struct SystemCallFailure: Error, CustomStringConvertible {
    let operation: String
    let code: Int32

    var description: String { "\(operation): \(String(cString: strerror(code)))" }
    var isTimeout: Bool { code == ETIMEDOUT }
    var isConnectionClosed: Bool { [EPIPE, ECONNRESET, ENOTCONN, ESHUTDOWN, EBADF].contains(code) }
    /// Nobody listens there (yet): ECONNREFUSED or ENOENT from a connect.
    var isNobodyListening: Bool { code == ECONNREFUSED || code == ENOENT }

    static func timeout(_ operation: String) -> SystemCallFailure { SystemCallFailure(operation: operation, code: ETIMEDOUT) }
}

/// Runs a system call, retrying while it fails with EINTR; returns the result and the errno of a failure.
/// Every call here goes through it, so an interrupted call is never mistaken for an error.
private func retryingEINTR<T: BinaryInteger>(_ call: () -> T) -> (result: T, errno: Int32) {
    while true {
        let result = call()
        if result == -1 {
            let code = errno
            if code == EINTR { continue }
            return (result, code)
        }
        return (result, 0)
    }
}

// MARK: Time

/// Seconds on the monotonic clock (CLOCK_MONOTONIC), which neither jumps with the wall clock nor goes back.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Milliseconds left until `deadline` (monotonic seconds) for poll(2), rounded up; -1 for no deadline.
private func pollMilliseconds(until deadline: Double?) -> Int32 {
    guard let deadline else { return -1 }
    let left = deadline - monotonicSeconds()
    if left <= 0 { return 0 }
    return Int32(min((left * 1000).rounded(.up), Double(Int32.max)))
}

/// What poll(2) saw on one descriptor.
struct PollEvents: OptionSet {
    let rawValue: Int16
    static let readable = PollEvents(rawValue: Int16(POLLIN))
    static let writable = PollEvents(rawValue: Int16(POLLOUT))
    static let hangup = PollEvents(rawValue: Int16(POLLHUP))
    static let error = PollEvents(rawValue: Int16(POLLERR))
    static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}

/// Waits until one of `descriptors` reports one of `events` (or a hang-up or error), or `deadline` passes.
/// Returns what each descriptor reported (all empty on a timeout).
func pollDescriptors(_ descriptors: [Int32], events: PollEvents, deadline: Double?) throws -> [PollEvents] {
    var entries = descriptors.map { pollfd(fd: $0, events: events.rawValue, revents: 0) }
    while true {
        let ready = entries.withUnsafeMutableBufferPointer {
            poll($0.baseAddress, nfds_t($0.count), pollMilliseconds(until: deadline))
        }
        if ready >= 0 { return entries.map { PollEvents(rawValue: $0.revents) } }
        let code = errno
        if code != EINTR { throw SystemCallFailure(operation: "poll", code: code) }
    }
}

// MARK: Sockets

/// A stream socket (TCP on 127.0.0.1, or Unix): blocking reads and writes bounded by deadlines through poll,
/// `shutdown()` from any thread to wake a blocked reader or writer, `close()` exactly once.
final class StreamSocket: @unchecked Sendable {
    // Safety: `fd` is guarded by `lock`; reads and writes use a snapshot and fail cleanly once it is closed.
    private let lock = NSLock()
    private var fd: Int32
    /// The peer, for messages: "127.0.0.1:53211" or a socket path.
    let peer: String

    private init(fd: Int32, peer: String) {
        self.fd = fd
        self.peer = peer
    }

    deinit { close() }

    var descriptor: Int32 { lock.withLock { fd } }

    /// A listening TCP socket on 127.0.0.1 (never another interface); port 0 lets the system choose.
    static func listenOnLoopback(port: UInt16 = 0, backlog: Int32 = 16) throws -> StreamSocket {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { throw SystemCallFailure(operation: "socket", code: errno) }
        let socket = StreamSocket(fd: fd, peer: "127.0.0.1:\(port)")
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = loopbackAddress(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if bound != 0 { throw SystemCallFailure(operation: "bind 127.0.0.1:\(port)", code: errno) }
        if listen(fd, backlog) != 0 { throw SystemCallFailure(operation: "listen on 127.0.0.1:\(port)", code: errno) }
        return socket
    }

    /// Connects to `host:port` (an IPv4 literal) within `timeout` seconds.
    static func connect(host: String, port: UInt16, timeout: Double) throws -> StreamSocket {
        var address = loopbackAddress(port: port)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw SystemCallFailure(operation: "parse address \(host)", code: EINVAL)
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { throw SystemCallFailure(operation: "socket", code: errno) }
        let socket = StreamSocket(fd: fd, peer: "\(host):\(port)")
        try socket.connect(what: "connect \(host):\(port)", timeout: timeout) { fd in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        return socket
    }

    /// Connects to the Unix socket at `path`.
    static func connect(unixPath path: String, timeout: Double) throws -> StreamSocket {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw SystemCallFailure(operation: "connect \(path)", code: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { throw SystemCallFailure(operation: "socket", code: errno) }
        let socket = StreamSocket(fd: fd, peer: path)
        try socket.connect(what: "connect \(path)", timeout: timeout) { fd in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        }
        return socket
    }

    /// Two connected Unix stream sockets (socketpair), both close-on-exec.
    static func pair() throws -> (StreamSocket, StreamSocket) {
        var fds: [Int32] = [-1, -1]
        let status = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
        if status != 0 { throw SystemCallFailure(operation: "socketpair", code: errno) }
        return (StreamSocket(fd: fds[0], peer: "socket pair"), StreamSocket(fd: fds[1], peer: "socket pair"))
    }

    private static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return address
    }

    /// A non-blocking connect finished by poll within `timeout`, then back to blocking mode.
    private func connect(what: String, timeout: Double, _ start: (Int32) -> Int32) throws {
        let fd = descriptor
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        if start(fd) != 0 {
            let code = errno
            guard code == EINPROGRESS || code == EINTR || code == EAGAIN else {
                throw SystemCallFailure(operation: what, code: code)
            }
            let seen = try pollDescriptors([fd], events: .writable, deadline: monotonicSeconds() + timeout)
            if seen[0].isEmpty { throw SystemCallFailure.timeout(what) }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) != 0 {
                throw SystemCallFailure(operation: what, code: errno)
            }
            if failure != 0 { throw SystemCallFailure(operation: what, code: failure) }
        }
        _ = fcntl(fd, F_SETFL, flags)
    }

    /// The port this TCP socket is bound to (the one the system chose for port 0).
    var localPort: UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = descriptor
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return status == 0 ? UInt16(bigEndian: address.sin_port) : 0
    }

    /// The next TCP connection and its peer's IPv4 address; nil once this listener was shut down or closed.
    func accept() throws -> (socket: StreamSocket, peerAddress: String)? {
        let fd = descriptor
        if fd < 0 { return nil }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let accepted = retryingEINTR {
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.accept(fd, $0, &length)
                }
            }
        }
        if accepted.result < 0 {
            switch accepted.errno {
            case EINVAL, EBADF: return nil  // shut down by the owner
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                // Out of descriptors: pause briefly so the accept loop does not spin, then report.
                _ = try? pollDescriptors([], events: .readable, deadline: monotonicSeconds() + 0.05)
                throw SystemCallFailure(operation: "accept", code: accepted.errno)
            default:
                throw SystemCallFailure(operation: "accept", code: accepted.errno)
            }
        }
        _ = fcntl(accepted.result, F_SETFD, FD_CLOEXEC)
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count))
        let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let port = UInt16(bigEndian: address.sin_port)
        return (StreamSocket(fd: accepted.result, peer: "\(host):\(port)"), host)
    }

    /// Reads up to `buffer.count` bytes, waiting until `deadline` (monotonic seconds, nil for ever) for any.
    /// Returns 0 at the end of the stream; throws a timeout failure when the deadline passes first.
    func receive(into buffer: UnsafeMutableRawBufferPointer, deadline: Double?) throws -> Int {
        let what = "receive from \(peer)"
        while true {
            let fd = descriptor
            if fd < 0 { throw SystemCallFailure(operation: what, code: EBADF) }
            let got = retryingEINTR { recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT)) }
            if got.result >= 0 { return got.result }
            guard got.errno == EAGAIN || got.errno == EWOULDBLOCK else {
                throw SystemCallFailure(operation: what, code: got.errno)
            }
            let seen = try pollDescriptors([fd], events: .readable, deadline: deadline)
            if seen[0].isEmpty { throw SystemCallFailure.timeout(what) }
        }
    }

    /// Sends all of `bytes`; gives up when the peer takes nothing until `deadline`.
    func send(_ bytes: UnsafeRawBufferPointer, deadline: Double?) throws {
        let what = "send to \(peer)"
        var offset = 0
        while offset < bytes.count {
            let fd = descriptor
            if fd < 0 { throw SystemCallFailure(operation: what, code: EBADF) }
            let sent = retryingEINTR {
                Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent.result >= 0 {
                offset += sent.result
                continue
            }
            guard sent.errno == EAGAIN || sent.errno == EWOULDBLOCK else {
                throw SystemCallFailure(operation: what, code: sent.errno)
            }
            let seen = try pollDescriptors([fd], events: .writable, deadline: deadline)
            if seen[0].isEmpty { throw SystemCallFailure.timeout(what) }
        }
    }

    func send(_ bytes: [UInt8], deadline: Double?) throws {
        try bytes.withUnsafeBytes { try send($0, deadline: deadline) }
    }

    /// Caps the kernel's send buffer (SO_SNDBUF, which also stops its growth): bounds how much is read ahead
    /// of what the peer has taken.
    func limitSendBuffer(to bytes: Int32) {
        var value = bytes
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Reads and drops whatever is waiting without blocking; true when the peer has closed (or the socket
    /// failed), so a caller polling for the peer's end can tell it from data.
    func drainReachedEnd() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let fd = descriptor
            if fd < 0 { return true }
            let got = buffer.withUnsafeMutableBytes { raw in
                retryingEINTR { recv(fd, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT)) }
            }
            if got.result > 0 { continue }
            if got.result == 0 { return true }
            return !(got.errno == EAGAIN || got.errno == EWOULDBLOCK)
        }
    }

    /// Ends both directions; a thread blocked in `receive`, `send` or `accept` on this socket wakes up.
    func shutdown() {
        let fd = descriptor
        if fd >= 0 { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// Ends the sending direction only (the peer reads the end of the stream), keeping what it still sends
    /// readable.
    func shutdownWrite() {
        let fd = descriptor
        if fd >= 0 { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }
    }

    /// Releases the descriptor (once).
    func close() {
        let fd = lock.withLock {
            let old = self.fd
            self.fd = -1
            return old
        }
        if fd >= 0 { _ = Glibc.close(fd) }
    }
}

// MARK: Processes

/// A child process started with posix_spawn: its own process group (Ctrl-C at the shell does not reach it),
/// default signal dispositions and an empty signal mask (whatever the spawning thread had blocked), standard
/// input from /dev/null, output to a log file, and one extra descriptor handed down as fd 3.
final class ChildProcess: @unchecked Sendable {
    // Safety: `exitStatus` is guarded by `lock`; `pid` never changes.
    let pid: pid_t
    private let lock = NSLock()
    private var exitStatus: Int32?

    /// The descriptor number the child finds the handed-down socket at.
    static let inheritedDescriptor: Int32 = 3

    private init(pid: pid_t) {
        self.pid = pid
    }

    /// Starts `executable` with `arguments` (not including argv[0]); `inherit` becomes the child's fd 3.
    static func spawn(executable: String, arguments: [String], inherit: StreamSocket, logPath: String) throws -> ChildProcess {
        // The handed-down descriptor must not already be 3 (dup2 onto itself would keep close-on-exec),
        // so take a high copy, close-on-exec in this process, for the child to dup from.
        let source = fcntl(inherit.descriptor, F_DUPFD_CLOEXEC, 10)
        if source < 0 { throw SystemCallFailure(operation: "dup", code: errno) }
        defer { _ = Glibc.close(source) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_adddup2(&actions, source, inheritedDescriptor)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGCHLD, SIGWINCH] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") }
        defer { environment.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], environment + [nil])
        if status != 0 { throw SystemCallFailure(operation: "start \(executable)", code: status) }
        return ChildProcess(pid: pid)
    }

    /// The exit status once the child has ended and was reaped (by `reap(blocking:)`), else nil.
    var status: Int32? { lock.withLock { exitStatus } }

    /// Collects the child's exit status: waits for it when `blocking`, else only if it has already ended.
    /// Returns true once the child is gone.
    @discardableResult
    func reap(blocking: Bool) -> Bool {
        lock.withLock {
            if exitStatus != nil { return true }
            var raw: Int32 = 0
            let result = retryingEINTR { waitpid(pid, &raw, blocking ? 0 : WNOHANG) }
            if result.result == pid {
                exitStatus = raw
                return true
            }
            if result.result < 0 && result.errno == ECHILD {
                exitStatus = -1  // reaped elsewhere: it is gone either way
                return true
            }
            return false
        }
    }

    /// Sends SIGKILL unless the child was already reaped (so a recycled pid is never hit).
    func kill() {
        lock.withLock {
            if exitStatus == nil { _ = Glibc.kill(pid, SIGKILL) }
        }
    }
}

/// True when `path` names an executable file.
func isExecutable(_ path: String) -> Bool {
    access(path, X_OK) == 0 && FileManager.default.fileExists(atPath: path)
}

// MARK: Files

/// A new folder only this user can enter (mkdtemp, mode 0700) under `parent`.
func makePrivateFolder(under parent: String, prefix: String) throws -> String {
    var template = Array("\(parent)/\(prefix)XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard made != nil else { throw SystemCallFailure(operation: "mkdtemp in \(parent)", code: errno) }
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Waits for a file to appear in a folder with inotify, so nobody polls the folder: create the watch, then
/// start what makes the file, then `wait`.
final class CreationWatch {
    private let fd: Int32
    private let folder: String

    init(folder: String) throws {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        if fd < 0 { throw SystemCallFailure(operation: "inotify_init1", code: errno) }
        self.folder = folder
        if inotify_add_watch(fd, folder, UInt32(IN_CREATE | IN_MOVED_TO)) < 0 {
            let code = errno
            Glibc.close(fd)
            throw SystemCallFailure(operation: "inotify_add_watch \(folder)", code: code)
        }
    }

    deinit { Glibc.close(fd) }

    enum Outcome { case created, hangup, timedOut }

    /// Returns when `name` exists in the folder, when `lifeline` (a socket the creator holds) reaches its
    /// end, or at `deadline`.
    func wait(for name: String, orEndOf lifeline: StreamSocket, deadline: Double) throws -> Outcome {
        let path = folder + "/" + name
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if access(path, F_OK) == 0 { return .created }
            let seen = try pollDescriptors([fd, lifeline.descriptor], events: .readable, deadline: deadline)
            if seen.allSatisfy(\.isEmpty) { return access(path, F_OK) == 0 ? .created : .timedOut }
            if !seen[1].isEmpty && lifeline.drainReachedEnd() { return access(path, F_OK) == 0 ? .created : .hangup }
            // Drain the events; the loop re-checks the path itself.
            _ = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        }
    }
}
