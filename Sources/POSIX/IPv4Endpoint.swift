#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An IPv4 socket address. IPv4 literals and `localhost` are taken as they are; other names go to the
/// resolver (IPv4 only: PTP/IP cameras and gphoto2 speak IPv4).
public struct IPv4Endpoint: Sendable, CustomStringConvertible {
    var address: in_addr
    public let port: UInt16
    public let host: String

    public init(host: String, port: UInt16) throws(SystemError) {
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
            throw SystemError(.resolve, on: host, errno: EHOSTUNREACH, detail: why)
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

    public var description: String { "\(host):\(port)" }

    func withSockaddr<R>(_ body: (UnsafePointer<Glibc.sockaddr>, socklen_t) -> R) -> R {
        var raw = sockaddr
        return withUnsafePointer(to: &raw) {
            $0.withMemoryRebound(to: Glibc.sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}
