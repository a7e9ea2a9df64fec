/// Multicast DNS service discovery (RFC 6762, RFC 6763) for PTP/IP: the question that finds `_ptp._tcp`
/// services, the answer that announces one, and reading the cameras out of an answer.
enum MulticastDNS {
    static let group = "224.0.0.251"
    static let port: UInt16 = 5353

    /// A PTR question for `_ptp._tcp.local`, sent from an ordinary port: a "legacy unicast" query
    /// (RFC 6762 §6.7), which responders answer straight to the asker, echoing `id`.
    static func query(id: UInt16) -> DNSMessage {
        DNSMessage(id: id, questions: [DNSMessage.Question(name: DiscoveryNames.serviceType, type: .ptr)])
    }

    /// The records that announce `instance` (`NAME._ptp._tcp.local`) on `hostName` (`HOST.local`) at `port`,
    /// reachable at `addresses`: PTR as the answer, SRV, TXT and A as additional records (RFC 6763 §12).
    static func announcement(instance: String, hostName: String, port: UInt16, addresses: [String], ttl: UInt32) -> DNSMessage {
        DNSMessage(
            flags: DNSMessage.responseFlags,
            answers: [DNSMessage.Record(name: DiscoveryNames.serviceType, ttl: ttl, data: .ptr(instance))],
            additionals: [
                DNSMessage.Record(name: instance, ttl: ttl, data: .srv(priority: 0, weight: 0, port: port, target: hostName), cacheFlush: true),
                DNSMessage.Record(name: instance, ttl: ttl, data: .txt([""]), cacheFlush: true),
            ] + addresses.map { DNSMessage.Record(name: hostName, ttl: ttl, data: .a($0), cacheFlush: true) })
    }

    /// The `_ptp._tcp` services an answer describes: each PTR's instance, with its SRV's port and target,
    /// and the target's A record (else the address the answer came from).
    static func cameras(in message: DNSMessage, from sender: String) -> [NetworkCamera] {
        let records = message.answers + message.additionals
        func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }
        var cameras: [NetworkCamera] = []
        for case let (owner, .ptr(instance)) in records.map({ ($0.name, $0.data) }) where same(owner, DiscoveryNames.serviceType) {
            guard let (port, target) = records.lazy.compactMap({ record -> (UInt16, String)? in
                guard same(record.name, instance), case .srv(_, _, let port, let target) = record.data else { return nil }
                return (port, target)
            }).first else { continue }
            let address = records.lazy.compactMap { record -> String? in
                guard same(record.name, target), case .a(let address) = record.data else { return nil }
                return address
            }.first ?? sender
            let suffix = "." + DiscoveryNames.serviceType
            let name = same(String(instance.suffix(suffix.count)), suffix) ? String(instance.dropLast(suffix.count)) : instance
            cameras.append(NetworkCamera(name: name, host: address, port: port, via: "mDNS"))
        }
        return cameras
    }
}
