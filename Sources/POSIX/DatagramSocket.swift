#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A UDP socket over IPv4, for discovery: queries sent to a multicast group (or one address) and the
/// answers read back with a deadline. Used by one thread at a time, which closes it when done: it may be
/// handed to a thread, never shared between two.
public final class DatagramSocket: Sendable {
    private let fd: Int32
    private let closed = Locked(false)

    /// A datagram and who sent it.
    public struct Datagram: Sendable {
        public var bytes: [UInt8]
        public var host: String
        public var port: UInt16

        public init(bytes: [UInt8], host: String, port: UInt16) {
            self.bytes = bytes
            self.host = host
            self.port = port
        }
    }

    /// Binds `host:port` (port 0: any free one). `shared` lets other programs bind the same port (SO_REUSEADDR
    /// and SO_REUSEPORT), as multicast responders on 1900 and 5353 must.
    public init(host: String = "0.0.0.0", port: UInt16 = 0, shared: Bool = false) throws(SystemError) {
        let endpoint = try IPv4Endpoint(host: host, port: port)
        fd = try systemCall("socket") { socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        do {
            if shared {
                try setOption(SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR")
                try setOption(SOL_SOCKET, SO_REUSEPORT, 1, "SO_REUSEPORT")
            }
            let descriptor = fd
            try systemCall("bind", on: "\(endpoint)") { endpoint.withSockaddr { bind(descriptor, $0, $1) } }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    public func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if first { Glibc.close(fd) }
    }

    /// The port bound (the one the system chose for port 0).
    public var localPort: UInt16 {
        var raw = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &raw) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return status == 0 ? UInt16(bigEndian: raw.sin_port) : 0
    }

    /// Receives datagrams sent to `group` (224.0.0.251, 239.255.255.250) on every interface.
    public func joinMulticastGroup(_ group: String) throws(SystemError) {
        var request = ip_mreq()
        guard inet_pton(AF_INET, group, &request.imr_multiaddr) == 1 else {
            throw SystemError("setsockopt", on: "IP_ADD_MEMBERSHIP \(group)", errno: EINVAL)
        }
        request.imr_interface.s_addr = INADDR_ANY
        try systemCall("setsockopt", on: "IP_ADD_MEMBERSHIP \(group)") {
            setsockopt(fd, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &request, socklen_t(MemoryLayout<ip_mreq>.size))
        }
    }

    /// Multicast sent from here goes this many hops (1: the local network only, as SSDP and mDNS ask).
    public func setMulticastHops(_ hops: Int32) throws(SystemError) {
        try setOption(Int32(IPPROTO_IP), IP_MULTICAST_TTL, hops, "IP_MULTICAST_TTL")
    }

    public func send(_ bytes: [UInt8], to host: String, port: UInt16) throws(SystemError) {
        let endpoint = try IPv4Endpoint(host: host, port: port)
        try systemCall(.send, on: "\(endpoint)") {
            endpoint.withSockaddr { address, length in
                bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, 0, address, length) }
            }
        }
    }

    /// The next datagram (at most 9000 bytes kept), nil once `deadline` has passed.
    public func receive(until deadline: Deadline) throws(SystemError) -> Datagram? {
        while true {
            let ready = try pollDescriptors([fd], events: .readable, deadline: deadline)
            guard let events = ready.first, !events.isEmpty else { return nil }
            var buffer = [UInt8](repeating: 0, count: 9000)
            var raw = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let count: Int
            do {
                count = try systemCall(.receive) {
                    buffer.withUnsafeMutableBytes { bytes in
                        withUnsafeMutablePointer(to: &raw) { pointer in
                            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                                recvfrom(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), address, &length)
                            }
                        }
                    }
                }
            } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
                continue  // readable, then taken: wait again
            }
            let sender = IPv4Endpoint(raw)
            return Datagram(bytes: Array(buffer.prefix(count)), host: sender.host, port: sender.port)
        }
    }

    private func setOption(_ level: Int32, _ name: Int32, _ value: Int32, _ label: String) throws(SystemError) {
        var value = value
        try systemCall("setsockopt", on: label) { setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) }
    }
}

/// This computer's IPv4 addresses on interfaces that are up, loopback left out.
public func localIPv4Addresses() -> [String] {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0, let first = list else { return [] }
    defer { freeifaddrs(list) }
    var addresses: [String] = []
    var cursor: UnsafeMutablePointer<ifaddrs>? = first
    while let entry = cursor {
        defer { cursor = entry.pointee.ifa_next }
        let flags = Int32(entry.pointee.ifa_flags)
        guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
            flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
        else { continue }
        let raw = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
        addresses.append(IPv4Endpoint(raw).host)
    }
    return addresses
}
