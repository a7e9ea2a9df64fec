import POSIX

/// Where discovery sends its questions: the SSDP and mDNS multicast groups and this computer's loopback, or
/// (tests, and networks where multicast does not reach) given addresses, asked unicast.
public struct DiscoveryTargets: Equatable, Sendable {
    public struct Endpoint: Equatable, Sendable {
        public var host: String
        public var port: UInt16
        public init(host: String, port: UInt16) {
            self.host = host
            self.port = port
        }
    }

    public var ssdp: [Endpoint]
    public var mdns: [Endpoint]

    public init(ssdp: [Endpoint], mdns: [Endpoint]) {
        self.ssdp = ssdp
        self.mdns = mdns
    }

    /// 239.255.255.250:1900 and 224.0.0.251:5353, the local network's, and 127.0.0.1 at the same ports: a
    /// camera announced on loopback (`serve --advertise` listening on 127.0.0.1) answers only there, its
    /// sockets being bound to that address, which a question to a group (sent out on the network) never
    /// reaches. `ssdpPort` and `mdnsPort` stand in for 1900 and 5353 in tests.
    public static func local(ssdpPort: UInt16? = nil, mdnsPort: UInt16? = nil) -> DiscoveryTargets {
        DiscoveryTargets(
            ssdp: [SSDPMessage.group, loopback].map { Endpoint(host: $0, port: ssdpPort ?? SSDPMessage.port) },
            mdns: [MulticastDNS.group, loopback].map { Endpoint(host: $0, port: mdnsPort ?? MulticastDNS.port) })
    }

    static let loopback = "127.0.0.1"

    /// `ssdp=HOST:PORT,mdns=HOST:PORT,...`; nil for anything else.
    public init?(parsing text: String) {
        ssdp = []
        mdns = []
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let colon = parts[1].lastIndex(of: ":"), let port = UInt16(parts[1][parts[1].index(after: colon)...])
            else { return nil }
            let endpoint = Endpoint(host: String(parts[1][..<colon]), port: port)
            switch parts[0] {
            case "ssdp": ssdp.append(endpoint)
            case "mdns": mdns.append(endpoint)
            default: return nil
            }
        }
    }
}

/// Asks the local network for cameras, by SSDP (the search targets of `DiscoveryNames.ssdpTargets`) and by
/// mDNS (`_ptp._tcp.local`), and collects the answers that arrive within a bounded time.
public enum CameraBrowser {
    /// The cameras that answered within `seconds`, one per URL (an mDNS answer's name preferred), in the
    /// order they answered; a server of this computer that answered both on loopback and at its network
    /// address (a `serve` on every address, asked both ways) is listed once, at the latter. A network that cannot be reached
    /// gives none, not an error.
    public static func find(seconds: Double = 2, targets: DiscoveryTargets = .local()) -> [NetworkCamera] {
        guard let socket = try? DatagramSocket() else { return [] }
        defer { socket.close() }
        try? socket.setMulticastHops(1)
        for endpoint in targets.ssdp {
            for (target, _) in DiscoveryNames.ssdpTargets {
                try? socket.send(SSDPMessage.search(target: target).encoded(), to: endpoint.host, port: endpoint.port)
            }
        }
        let query = MulticastDNS.query(id: UInt16.random(in: 1 ... .max)).encoded()
        for endpoint in targets.mdns { try? socket.send(query, to: endpoint.host, port: endpoint.port) }

        var answers: [NetworkCamera] = []
        let deadline = Deadline.after(seconds)
        while let datagram = try? socket.receive(until: deadline) { answers += cameras(in: datagram) }
        return merged(answers, ownAddresses: Set(localIPv4Addresses()))
    }

    /// The cameras `answers` name, one per URL (an mDNS answer's name preferred), in the order they came. A
    /// server of this computer that answered on loopback and at one of `ownAddresses` (its network addresses)
    /// on the same port is kept at the latter.
    static func merged(_ answers: [NetworkCamera], ownAddresses: Set<String>) -> [NetworkCamera] {
        var found: [NetworkCamera] = []
        for camera in answers {
            if let index = found.firstIndex(where: { $0.url == camera.url }) {
                if camera.via == "mDNS" && found[index].via != "mDNS" { found[index] = camera }
            } else {
                found.append(camera)
            }
        }
        return found.filter { camera in
            !camera.host.hasPrefix("127.") || !found.contains { ownAddresses.contains($0.host) && $0.port == camera.port }
        }
    }

    /// The cameras one answer names (none for anything else).
    static func cameras(in datagram: DatagramSocket.Datagram) -> [NetworkCamera] {
        if let message = SSDPMessage(decoding: datagram.bytes), message.isResponse {
            guard let target = message["ST"], let known = DiscoveryNames.ssdpTargets.first(where: { $0.target == target }) else {
                return []
            }
            let port = message[DiscoveryNames.portHeader].flatMap { UInt16($0) } ?? 15740
            let host = target == DiscoveryNames.serveTarget ? datagram.host : (message.locationHost ?? datagram.host)
            let name = known.target == DiscoveryNames.serveTarget ? (message["SERVER"].map { "\(known.camera) (\($0))" } ?? known.camera) : known.camera
            return [NetworkCamera(name: name, host: host, port: port, via: "SSDP")]
        }
        guard let message = try? DNSMessage(decoding: datagram.bytes), message.isResponse else { return [] }
        return MulticastDNS.cameras(in: message, from: datagram.host)
    }
}
