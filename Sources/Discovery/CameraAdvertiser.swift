import POSIX

/// Announces a PTP/IP camera (`mediashell serve --advertise`) on the local network: answers SSDP searches
/// for its search target (and `ssdp:all`) and mDNS questions for `_ptp._tcp.local` and its own names, each
/// on a thread of its own, until `stop`. Only answers: it never sends unasked.
public final class CameraAdvertiser: Sendable {
    /// What is announced.
    public struct Camera: Sendable {
        /// The instance name (mDNS) and product (SSDP SERVER): "Virtual Camera on HOST".
        public var name: String
        /// The PTP/IP port.
        public var port: UInt16
        /// The addresses the camera is reached at (A records); SSDP answers come from the address asked.
        public var addresses: [String]
        /// A stable identity for SSDP's USN (`uuid:...`).
        public var uuid: String

        public init(name: String, port: UInt16, addresses: [String], uuid: String) {
            self.name = name
            self.port = port
            self.addresses = addresses
            self.uuid = uuid
        }
    }

    public let camera: Camera
    private let bindHost: String
    private let requestedPorts: (ssdp: UInt16, mdns: UInt16)
    private let log: @Sendable (String) -> Void
    private let state = Locked(State())

    private struct State {
        var stopping = false
        var threads: [JoinableThread] = []
        var ports: (ssdp: UInt16, mdns: UInt16) = (0, 0)
    }

    /// - Parameters:
    ///   - bindHost: "0.0.0.0" answers the network (the multicast groups are joined); an address such as
    ///     127.0.0.1 answers only unicast questions sent to it (tests).
    ///   - ssdpPort, mdnsPort: 1900 and 5353 on a network; 0 lets the system choose.
    public init(
        camera: Camera, bindHost: String = "0.0.0.0", ssdpPort: UInt16 = 1900, mdnsPort: UInt16 = 5353,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.camera = camera
        self.bindHost = bindHost
        requestedPorts = (ssdpPort, mdnsPort)
        self.log = log
    }

    /// The ports answered on (the ones the system chose for 0), once started.
    public var ports: (ssdp: UInt16, mdns: UInt16) { state.withLock { $0.ports } }

    /// Binds both sockets (shared with other responders on the machine) and starts answering.
    public func start() throws(SystemError) {
        let ssdp = try DatagramSocket(host: bindHost, port: requestedPorts.ssdp, shared: true)
        let mdns: DatagramSocket
        do {
            mdns = try DatagramSocket(host: bindHost, port: requestedPorts.mdns, shared: true)
            if bindHost == "0.0.0.0" {
                try ssdp.joinMulticastGroup(SSDPMessage.group)
                try mdns.joinMulticastGroup(MulticastDNS.group)
                try mdns.setMulticastHops(255)  // RFC 6762 §11: mDNS packets go out with TTL 255
            }
        } catch {
            ssdp.close()
            throw error
        }
        let ports = (ssdp.localPort, mdns.localPort)
        let ssdpThread = try JoinableThread(name: "ssdp") { [self] in serve(ssdp, answer: answerSSDP) }
        let mdnsThread: JoinableThread
        do {
            mdnsThread = try JoinableThread(name: "mdns") { [self] in serve(mdns, answer: answerMDNS) }
        } catch {
            state.withLock { $0.stopping = true }
            ssdpThread.join()
            mdns.close()
            throw error
        }
        state.withLock {
            $0.ports = ports
            $0.threads = [ssdpThread, mdnsThread]
        }
    }

    /// Stops answering and waits for both threads (each looks every 250 ms whether to stop).
    public func stop() {
        let threads = state.withLock { state -> [JoinableThread] in
            state.stopping = true
            defer { state.threads = [] }
            return state.threads
        }
        for thread in threads { thread.join() }
    }

    deinit { stop() }

    /// Reads questions until stopped, answering each through `answer`; closes the socket at the end.
    private func serve(_ socket: DatagramSocket, answer: (DatagramSocket.Datagram, DatagramSocket) -> Void) {
        defer { socket.close() }
        while !state.withLock({ $0.stopping }) {
            do {
                guard let datagram = try socket.receive(until: .after(0.25)) else { continue }
                answer(datagram, socket)
            } catch {
                log("advertise: \(error)")
                return
            }
        }
    }

    private func answerSSDP(_ datagram: DatagramSocket.Datagram, _ socket: DatagramSocket) {
        guard let message = SSDPMessage(decoding: datagram.bytes), message.isSearch, let target = message["ST"],
            [DiscoveryNames.serveTarget, "ssdp:all", "upnp:rootdevice"].contains(target)
        else { return }
        let answered = target == "ssdp:all" ? DiscoveryNames.serveTarget : target
        let reply = SSDPMessage(
            startLine: "HTTP/1.1 200 OK",
            headers: [
                "CACHE-CONTROL": "max-age=1800", "EXT": "", "SERVER": "Linux UPnP/1.1 mediashell (\(camera.name))",
                "ST": answered, "USN": "uuid:\(camera.uuid)::\(answered)", DiscoveryNames.portHeader: "\(camera.port)",
            ])
        do { try socket.send(reply.encoded(), to: datagram.host, port: datagram.port) } catch { log("advertise: SSDP answer to \(datagram.host): \(error)") }
    }

    /// "Virtual Camera on host" as a DNS label (dots would split it).
    private var instance: String { camera.name.replacingDots + "." + DiscoveryNames.serviceType }

    private var hostName: String {
        let label = (localHostName() ?? "mediashell").filter { $0.isLetter || $0.isNumber || $0 == "-" }
        return (label.isEmpty ? "mediashell" : label) + ".local"
    }

    private func answerMDNS(_ datagram: DatagramSocket.Datagram, _ socket: DatagramSocket) {
        guard let message = try? DNSMessage(decoding: datagram.bytes), !message.isResponse else { return }
        let names = [DiscoveryNames.serviceType, instance, hostName].map { $0.lowercased() }
        let asked = message.questions.filter { names.contains($0.name.lowercased()) && [.ptr, .srv, .txt, .a, .any].contains($0.type) }
        guard !asked.isEmpty else { return }
        // An asker on another port than 5353 is a "legacy" resolver: it is answered directly, with its id and
        // questions, and short lifetimes (RFC 6762 §6.7); one on 5353 that asked for unicast, directly too.
        let legacy = datagram.port != MulticastDNS.port
        var answer = MulticastDNS.announcement(
            instance: instance, hostName: hostName, port: camera.port, addresses: camera.addresses, ttl: legacy ? 10 : 120)
        if legacy {
            answer.id = message.id
            answer.questions = asked
        }
        let direct = legacy || asked.contains { $0.unicastResponse } || bindHost != "0.0.0.0"
        do {
            if direct {
                try socket.send(answer.encoded(), to: datagram.host, port: datagram.port)
            } else {
                try socket.send(answer.encoded(), to: MulticastDNS.group, port: MulticastDNS.port)
            }
        } catch {
            log("advertise: mDNS answer to \(datagram.host): \(error)")
        }
    }
}

extension String {
    fileprivate var replacingDots: String { String(map { $0 == "." ? "-" : $0 }) }
}
