#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A stream socket (TCP over IPv4, or Unix): blocking reads and writes bounded through poll, `shutdown()`
/// from any thread to wake a blocked reader or writer, and `close()` from any thread.
///
/// The descriptor is never released while a call uses it: each call holds a lease on it, and `close()`
/// during a call shuts the socket down (waking the call) and leaves the release to the last lease. So a
/// reader thread can never read a descriptor number that was closed and handed to another file.
public final class Socket: Sendable, CustomStringConvertible {
    private struct State {
        var fd: Int32
        var users = 0
        var closing = false
    }

    private let state: Locked<State>
    /// The peer, for messages: "127.0.0.1:53211", a socket path, or "socket pair".
    public let peer: String
    /// The peer's IPv4 address for an accepted connection ("127.0.0.1"), else empty.
    public let peerHost: String

    init(fd: Int32, peer: String, peerHost: String = "") {
        state = Locked(State(fd: fd))
        self.peer = peer
        self.peerHost = peerHost
    }

    deinit { close() }

    public var description: String { peer }

    // MARK: The descriptor

    /// Runs `body` with the descriptor, which stays open until `body` returns; throws once closed.
    public func withDescriptor<R, E: Error>(_ call: SystemError.Call, _ body: (Int32) throws(E) -> R) throws -> R {
        let fd = try acquire(call, on: peer)
        defer { release() }
        return try body(fd)
    }

    /// The typed-throws form of `withDescriptor` for this module's calls.
    /// (`call` and `target` name the call in an error; the target is built only then.)
    func leased<R>(
        _ call: SystemError.Call, on target: @autoclosure () -> String? = nil, _ body: (Int32) throws(SystemError) -> R
    ) throws(SystemError) -> R {
        let fd = try acquire(call, on: target())
        defer { release() }
        return try body(fd)
    }

    /// Takes a lease on the descriptor; `release()` gives it back.
    private func acquire(_ call: SystemError.Call, on target: @autoclosure () -> String?) throws(SystemError) -> Int32 {
        let fd: Int32? = state.withLock { state in
            if state.closing { return nil }
            state.users += 1
            return state.fd
        }
        guard let fd else { throw SystemError.closedLocally(call, on: target()) }
        return fd
    }

    private func release() {
        let closable: Int32? = state.withLock { state in
            state.users -= 1
            guard state.closing, state.users == 0, state.fd >= 0 else { return nil }
            defer { state.fd = -1 }
            return state.fd
        }
        if let closable { _ = Glibc.close(closable) }
    }

    /// True once `close()` was called.
    public var isClosed: Bool { state.withLock { $0.closing } }

    /// Ends both directions; a thread blocked in `receive`, `send` or `accept` on this socket wakes up.
    /// Safe from any thread, repeatable.
    public func shutdown() { shutdown(Int32(SHUT_RDWR)) }

    /// Ends the sending direction only (the peer reads the end of the stream), keeping what it still sends
    /// readable.
    public func shutdownWrite() { shutdown(Int32(SHUT_WR)) }

    private func shutdown(_ how: Int32) {
        state.withLock { state in
            // ENOTCONN (never connected) is fine: there is nothing to end.
            if state.fd >= 0 { _ = Glibc.shutdown(state.fd, how) }
        }
    }

    /// Releases the descriptor, at once when no call uses it, else (after waking those calls with a
    /// shutdown) when the last of them returns. Later calls fail; repeating it does nothing.
    public func close() {
        let closable: Int32? = state.withLock { state in
            state.closing = true
            guard state.fd >= 0 else { return nil }
            if state.users > 0 {
                _ = Glibc.shutdown(state.fd, Int32(SHUT_RDWR))
                return nil
            }
            defer { state.fd = -1 }
            return state.fd
        }
        if let closable { _ = Glibc.close(closable) }
    }

    // MARK: Options

    /// TCP_NODELAY: small packets (PTP/IP commands, HTTP heads) go out at once.
    public func setNoDelay() {
        _ = try? leased(.setsockopt, on: "TCP_NODELAY") { fd throws(SystemError) in
            try setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1, "TCP_NODELAY")
        }
    }

    /// Caps the kernel's send buffer (SO_SNDBUF, which also stops its growth): bounds how much is read ahead
    /// of what the peer has taken.
    public func limitSendBuffer(to bytes: Int32) {
        _ = try? leased(.setsockopt, on: "SO_SNDBUF") { fd throws(SystemError) in
            try setOption(fd, SOL_SOCKET, SO_SNDBUF, bytes, "SO_SNDBUF")
        }
    }

    /// The port this TCP socket is bound to (the one the system chose for port 0); 0 once closed.
    public var localPort: UInt16 {
        (try? leased("getsockname") { fd throws(SystemError) in
            var raw = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            try withUnsafeMutablePointer(to: &raw) { (pointer) throws(SystemError) in
                _ = try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(SystemError) in
                    try systemCall("getsockname") { getsockname(fd, address, &length) }
                }
            }
            return UInt16(bigEndian: raw.sin_port)
        }) ?? 0
    }
}

func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32, _ option: String) throws(SystemError) {
    var value = value
    try systemCall(.setsockopt, on: option) { setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) }
}
