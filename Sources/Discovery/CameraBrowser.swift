import POSIX

/// Where discovery sends its questions: the SSDP and mDNS multicast groups, or (tests, and networks where
/// multicast does not reach) given addresses, asked unicast.
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

    /// 239.255.255.250:1900 and 224.0.0.251:5353, the local network's.
    public static let multicast = DiscoveryTargets(
        ssdp: [Endpoint(host: SSDPMessage.group, port: SSDPMessage.port)],
        mdns: [Endpoint(host: MulticastDNS.group, port: MulticastDNS.port)])

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
    /// order they answered. A network that cannot be reached gives none, not an error.
    public static func find(seconds: Double = 2, targets: DiscoveryTargets = .multicast) -> [NetworkCamera] {
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

        var found: [NetworkCamera] = []
        let deadline = Deadline.after(seconds)
        while let datagram = try? socket.receive(until: deadline) {
            for camera in cameras(in: datagram) {
                if let index = found.firstIndex(where: { $0.url == camera.url }) {
                    if camera.via == "mDNS" && found[index].via != "mDNS" { found[index] = camera }
                } else {
                    found.append(camera)
                }
            }
        }
        return found
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
