#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Opening sockets: connecting with a bounded wait, listening, accepting, socket pairs.
extension Socket {
    /// Connects to `host:port` within `timeout` seconds (non-blocking connect, then poll), with TCP_NODELAY.
    public static func connect(host: String, port: UInt16, timeout: Double) throws(SystemError) -> Socket {
        let endpoint = try IPv4Endpoint(host: host, port: port)
        let socket = try open(family: AF_INET, peer: endpoint.description)
        try socket.connect(timeout: timeout) { fd in
            endpoint.withSockaddr { Glibc.connect(fd, $0, $1) }
        }
        socket.setNoDelay()
        return socket
    }

    /// Connects to the Unix socket at `path` within `timeout` seconds.
    public static func connect(unixPath path: String, timeout: Double) throws(SystemError) -> Socket {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw SystemError(.connect, on: path, errno: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let socket = try open(family: AF_UNIX, peer: path)
        try socket.connect(timeout: timeout) { fd in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        }
        return socket
    }

    /// A listening TCP socket on `host:port` (SO_REUSEADDR); port 0 lets the system choose, see `localPort`.
    public static func listen(host: String, port: UInt16, backlog: Int32 = 64) throws(SystemError) -> Socket {
        let endpoint = try IPv4Endpoint(host: host, port: port)
        let socket = try open(family: AF_INET, peer: endpoint.description)
        try socket.leased(.listen, on: endpoint.description) { fd throws(SystemError) in
            try setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR")
            try systemCall(.bind, on: endpoint.description) { endpoint.withSockaddr { bind(fd, $0, $1) } }
            try systemCall(.listen, on: endpoint.description) { Glibc.listen(fd, backlog) }
        }
        return socket
    }

    /// Two connected Unix stream sockets (socketpair), both close-on-exec.
    public static func pair() throws(SystemError) -> (Socket, Socket) {
        var fds: [Int32] = [-1, -1]
        try systemCall("socketpair") { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) }
        return (Socket(fd: fds[0], peer: "socket pair"), Socket(fd: fds[1], peer: "socket pair"))
    }

    private static func open(family: Int32, peer: String) throws(SystemError) -> Socket {
        let fd = try systemCall(.socket, on: peer) { socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        return Socket(fd: fd, peer: peer)
    }

    /// A non-blocking connect finished by poll within `timeout`, then back to blocking mode.
    private func connect(timeout: Double, _ start: (Int32) -> Int32) throws(SystemError) {
        try leased(.connect, on: peer) { fd throws(SystemError) in
            let flags = try systemCall("fcntl", on: "F_GETFL") { fcntl(fd, F_GETFL) }
            try systemCall("fcntl", on: "F_SETFL") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
            if start(fd) != 0 {
                let code = errno
                guard code == EINPROGRESS || code == EINTR || code == EAGAIN else { throw SystemError(.connect, on: peer, errno: code) }
                let seen = try pollDescriptors([fd], events: .writable, deadline: .after(timeout))
                if seen[0].isEmpty { throw SystemError.timeout(.connect, on: peer, "no answer within \(formatSeconds(timeout))") }
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                try systemCall(.connect, on: peer) { getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) }
                if failure != 0 { throw SystemError(.connect, on: peer, errno: failure) }
            }
            try systemCall("fcntl", on: "F_SETFL") { fcntl(fd, F_SETFL, flags) }
        }
    }

    /// A server's accept loop: hands each connection to `accepted`, until this listener is shut down or
    /// closed, or an accept fails while `stopping` says so; any other failure goes to `failed`, and the loop
    /// goes on (a client that gave up is no reason to stop serving).
    public func acceptEach(stopping: () -> Bool, failed: (SystemError) -> Void, _ accepted: (Socket) -> Void) {
        while true {
            let socket: Socket?
            do {
                socket = try accept()
            } catch {
                if stopping() { return }
                failed(error)
                continue
            }
            guard let socket else { return }
            accepted(socket)
        }
    }

    /// The next TCP connection (TCP_NODELAY set, close-on-exec); nil once this listener was shut down or
    /// closed. Transient failures (a client that gave up) are thrown for the caller to log; when descriptors
    /// run out (EMFILE, ENFILE) it pauses a little first, so an accept loop does not spin.
    public func accept() throws(SystemError) -> Socket? {
        let result: (fd: Int32, endpoint: IPv4Endpoint)?
        do throws(SystemError) {
            result = try leased(.accept, on: peer) { fd throws(SystemError) in
                var raw = sockaddr_in()
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                let accepted = try withUnsafeMutablePointer(to: &raw) { (pointer) throws(SystemError) in
                    try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(SystemError) in
                        try systemCall(.accept, on: peer) { Glibc.accept(fd, address, &length) }
                    }
                }
                // A thread spawning a child in between would hand it this descriptor: the window is short,
                // and accept4 (which closes it) is not visible to Swift.
                _ = fcntl(accepted, F_SETFD, FD_CLOEXEC)
                return (accepted, IPv4Endpoint(raw))
            }
        } catch {
            switch error.errno {
            case EINVAL, ESHUTDOWN: return nil  // shut down or closed by the owner
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                pause(until: .after(0.1))
                throw error
            default: throw error
            }
        }
        guard let result else { return nil }
        let socket = Socket(fd: result.fd, peer: result.endpoint.description, peerHost: result.endpoint.host)
        socket.setNoDelay()
        return socket
    }
}
