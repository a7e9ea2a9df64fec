// The one file of this module that calls the C library: sockets, poll, threads, errno.
// Everything above it speaks `Socket`, `JoinableThread` and `PTPError`.
import Foundation
import Glibc
import PTP

// MARK: errno

/// Runs a system call, retrying while it fails with EINTR. Every call in this file goes through here,
/// so an interrupted call is never mistaken for an error.
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

/// The C library's text for an errno value ("Connection refused").
func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }

/// A failed call turned into a user-facing error at once, before anything else can overwrite errno.
private func systemError(_ what: String, _ code: Int32) -> PTPError {
    switch code {
    case EPIPE, ECONNRESET, ENOTCONN, ESHUTDOWN:
        .connectionClosed("\(what): \(errnoText(code))")
    case ETIMEDOUT:
        .timeout("\(what): \(errnoText(code))")
    default:
        .system("\(what): \(errnoText(code))")
    }
}

/// Milliseconds for poll(2); nil waits for ever. Rounded up so a tiny timeout never becomes a busy poll.
private func pollMilliseconds(_ timeout: TimeInterval?) -> Int32 {
    guard let timeout else { return -1 }
    if timeout <= 0 { return 0 }
    return Int32(min((timeout * 1000).rounded(.up), Double(Int32.max)))
}

// MARK: Addresses

/// An IPv4 socket address. IPv4 literals and `localhost` are taken as they are; other names go to the
/// resolver (IPv4 only: PTP/IP cameras and gphoto2 speak IPv4).
struct IPv4Endpoint: CustomStringConvertible {
    var address: in_addr
    var port: UInt16
    var host: String

    init(host: String, port: UInt16) throws {
        self.host = host
        self.port = port
        var address = in_addr()
        let name = host == "localhost" ? "127.0.0.1" : host
        if inet_pton(AF_INET, name, &address) == 1 {
            self.address = address
            return
        }
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard status == 0, let first = list, let sockaddrPointer = first.pointee.ai_addr else {
            let why = status == 0 ? "no IPv4 address" : String(cString: gai_strerror(status))
            throw PTPError.system("cannot resolve host '\(host)': \(why)")
        }
        self.address = sockaddrPointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
    }

    init(_ raw: sockaddr_in) {
        address = raw.sin_addr
        port = UInt16(bigEndian: raw.sin_port)
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        var copy = raw.sin_addr
        inet_ntop(AF_INET, &copy, &text, socklen_t(text.count))
        host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    var sockaddr: sockaddr_in {
        var raw = sockaddr_in()
        raw.sin_family = sa_family_t(AF_INET)
        raw.sin_port = port.bigEndian
        raw.sin_addr = address
        return raw
    }

    var description: String { "\(host):\(port)" }
}

private func withSockaddr<R>(_ endpoint: IPv4Endpoint, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
    var raw = endpoint.sockaddr
    return withUnsafePointer(to: &raw) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
}

// MARK: Socket

/// A TCP socket. Reads and writes come from one owning thread at a time; `shutdown()` may come from any
/// thread and wakes a reader or writer blocked on it; `close()` releases the descriptor exactly once.
final class Socket: @unchecked Sendable, CustomStringConvertible {
    private let lock = NSLock()
    private var fd: Int32
    /// The peer, "127.0.0.1:15740", for messages.
    let peer: String

    private init(fd: Int32, peer: String) {
        self.fd = fd
        self.peer = peer
    }

    deinit { close() }

    var description: String { peer }

    /// Connects to `host:port` within `timeout` (non-blocking connect, then poll), with TCP_NODELAY.
    static func connect(host: String, port: UInt16, timeout: TimeInterval) throws -> Socket {
        let endpoint = try IPv4Endpoint(host: host, port: port)
        let what = "connect \(endpoint)"
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { throw systemError("socket for \(what)", errno) }
        let socket = Socket(fd: fd, peer: endpoint.description)
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        let started = withSockaddr(endpoint) { Glibc.connect(fd, $0, $1) }
        if started != 0 {
            let code = errno
            guard code == EINPROGRESS || code == EINTR else { throw systemError(what, code) }
            var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = retryingEINTR { poll(&pfd, 1, pollMilliseconds(timeout)) }
            if ready.result < 0 { throw systemError(what, ready.errno) }
            if ready.result == 0 {
                throw PTPError.timeout("\(what): no answer within \(formatSeconds(timeout))")
            }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) != 0 { throw systemError(what, errno) }
            if failure != 0 { throw systemError(what, failure) }
        }
        _ = fcntl(fd, F_SETFL, flags)
        socket.setNoDelay()
        return socket
    }

    /// A listening socket on `host:port` (SO_REUSEADDR); port 0 picks a free port, see `localPort`.
    static func listen(host: String, port: UInt16, backlog: Int32 = 64) throws -> Socket {
        let endpoint = try IPv4Endpoint(host: host, port: port)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { throw systemError("socket for listen \(endpoint)", errno) }
        let socket = Socket(fd: fd, peer: endpoint.description)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if withSockaddr(endpoint, { bind(fd, $0, $1) }) != 0 { throw systemError("bind \(endpoint)", errno) }
        if Glibc.listen(fd, backlog) != 0 { throw systemError("listen \(endpoint)", errno) }
        return socket
    }

    /// The port this socket is bound to (the one the system chose for port 0).
    var localPort: UInt16 {
        let fd = lock.withLock { self.fd }
        var raw = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &raw) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return status == 0 ? UInt16(bigEndian: raw.sin_port) : 0
    }

    /// The next connection, with TCP_NODELAY set; nil once the listener was shut down or closed.
    /// Transient failures (a client that gave up, descriptors exhausted) are thrown for the caller to log.
    func accept() throws -> Socket? {
        let fd = lock.withLock { self.fd }
        if fd < 0 { return nil }
        var raw = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let accepted = retryingEINTR {
            withUnsafeMutablePointer(to: &raw) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.accept(fd, $0, &length)
                }
            }
        }
        if accepted.result < 0 {
            switch accepted.errno {
            case EINVAL, EBADF: return nil  // shut down by stop()
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                // Out of descriptors: wait a little so the accept loop does not spin, then report.
                var pfd = pollfd(fd: -1, events: 0, revents: 0)
                _ = poll(&pfd, 0, 100)
                throw systemError("accept on \(peer)", accepted.errno)
            default:
                throw systemError("accept on \(peer)", accepted.errno)
            }
        }
        _ = fcntl(accepted.result, F_SETFD, FD_CLOEXEC)
        let socket = Socket(fd: accepted.result, peer: IPv4Endpoint(raw).description)
        socket.setNoDelay()
        return socket
    }

    private func setNoDelay() {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Waits until the socket is readable (data, end of stream or an error); false after `timeout`.
    func waitReadable(timeout: TimeInterval?) throws -> Bool {
        try wait(events: Int16(POLLIN), timeout: timeout, what: "receive from \(peer)")
    }

    private func wait(events: Int16, timeout: TimeInterval?, what: String) throws -> Bool {
        let fd = lock.withLock { self.fd }
        if fd < 0 { throw PTPError.connectionClosed("\(what): socket closed") }
        var pfd = pollfd(fd: fd, events: events, revents: 0)
        let ready = retryingEINTR { poll(&pfd, 1, pollMilliseconds(timeout)) }
        if ready.result < 0 { throw systemError(what, ready.errno) }
        return ready.result > 0
    }

    /// Sends all of `bytes`; `timeout` bounds each wait for the peer to take more.
    func send(_ bytes: UnsafeRawBufferPointer, timeout: TimeInterval?) throws {
        var offset = 0
        let what = "send to \(peer)"
        while offset < bytes.count {
            let fd = lock.withLock { self.fd }
            if fd < 0 { throw PTPError.connectionClosed("\(what): socket closed") }
            let sent = retryingEINTR {
                Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent.result >= 0 {
                offset += sent.result
                continue
            }
            guard sent.errno == EAGAIN || sent.errno == EWOULDBLOCK else { throw systemError(what, sent.errno) }
            guard try wait(events: Int16(POLLOUT), timeout: timeout, what: what) else {
                throw PTPError.timeout("\(what): peer took nothing for \(formatSeconds(timeout))")
            }
        }
    }

    func send(_ bytes: [UInt8], timeout: TimeInterval?) throws {
        try bytes.withUnsafeBytes { try send($0, timeout: timeout) }
    }

    /// Fills `buffer` from the stream; `timeout` bounds each wait for more bytes. Returns fewer bytes than
    /// asked only when the peer ended the stream (0: it ended before the first byte).
    func receive(into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval?) throws -> Int {
        var offset = 0
        let what = "receive from \(peer)"
        while offset < buffer.count {
            let fd = lock.withLock { self.fd }
            if fd < 0 { throw PTPError.connectionClosed("\(what): socket closed") }
            let received = retryingEINTR {
                recv(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_DONTWAIT))
            }
            if received.result > 0 {
                offset += received.result
                continue
            }
            if received.result == 0 { return offset }
            guard received.errno == EAGAIN || received.errno == EWOULDBLOCK else {
                throw systemError(what, received.errno)
            }
            guard try wait(events: Int16(POLLIN), timeout: timeout, what: what) else {
                throw PTPError.timeout("\(what): nothing received for \(formatSeconds(timeout))")
            }
        }
        return offset
    }

    /// Ends both directions; a thread blocked on this socket wakes up. Safe from any thread, repeatable.
    func shutdown() {
        lock.withLock {
            if fd >= 0 { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// Releases the descriptor; later calls do nothing.
    func close() {
        lock.withLock {
            if fd >= 0 {
                _ = Glibc.close(fd)
                fd = -1
            }
        }
    }
}

func formatSeconds(_ seconds: TimeInterval?) -> String {
    guard let seconds else { return "ever" }
    return String(format: "%.1f s", seconds)
}

// MARK: Threads

/// A thread that can be joined, so whoever starts it can wait until it is really gone (Foundation's
/// Thread cannot be joined, which makes counting threads after a shutdown racy).
final class JoinableThread: @unchecked Sendable {
    private let lock = NSLock()
    private var handle = pthread_t()
    private var joined = false
    private var finished = false

    private final class Context {
        let name: String
        let body: @Sendable () -> Void
        let thread: JoinableThread
        /// Signalled once the thread has its name, so it is never seen unnamed.
        let named = DispatchSemaphore(value: 0)
        init(name: String, body: @escaping @Sendable () -> Void, thread: JoinableThread) {
            self.name = name
            self.body = body
            self.thread = thread
        }
    }

    /// Starts `body` on a new thread named `name` (cut to the 15 characters Linux keeps).
    init(name: String, _ body: @escaping @Sendable () -> Void) throws {
        let box = Context(name: name, body: body, thread: self)
        let context = Unmanaged.passRetained(box).toOpaque()
        let status = lock.withLock {
            pthread_create(&handle, nil, { raw in
                let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
                nameCurrentThread(context.name)
                context.named.signal()
                context.body()
                context.thread.lock.withLock { context.thread.finished = true }
                return nil
            }, context)
        }
        if status != 0 {
            Unmanaged<Context>.fromOpaque(context).release()
            throw PTPError.system("cannot start thread \(name): \(errnoText(status))")
        }
        box.named.wait()
    }

    /// True once the body has returned (the thread is about to end; `join` will not wait long).
    var isFinished: Bool { lock.withLock { finished } }

    /// True when called on this thread.
    var isCurrent: Bool { lock.withLock { pthread_equal(handle, pthread_self()) != 0 } }

    /// Waits for the thread to end. Calling it again, or from the thread itself, does nothing.
    func join() {
        let target: pthread_t? = lock.withLock {
            if joined || pthread_equal(handle, pthread_self()) != 0 { return nil }
            joined = true
            return handle
        }
        if let target { _ = pthread_join(target, nil) }
    }

    deinit {
        // Never joined (its owner was dropped): let the system reclaim it when it ends.
        if !joined { _ = pthread_detach(handle) }
    }
}

/// Names the calling thread (as `pthread_setname_np` would; that one is not visible to Swift): the name
/// shows in `top -H`, debuggers and /proc/self/task/*/comm.
private func nameCurrentThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    _ = Glibc.close(fd)
}

/// This machine's host name, the friendly name an initiator sends by default.
func localHostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "mediashell" }
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return name.isEmpty ? "mediashell" : name
}
