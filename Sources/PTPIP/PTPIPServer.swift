import Foundation
import POSIX
import PTP

/// A PTP/IP responder listening for initiators (gphoto2, our own `PTPIPInitiator`, a camera app).
///
/// Each accepted socket gets a thread that reads its first packet: Init_Command_Request starts a
/// connection (Init_Command_Ack, then the handler runs on that thread until it returns);
/// Init_Event_Request attaches the event socket to the connection with that number (Init_Event_Ack),
/// or is refused with Init_Fail. A socket that sends garbage, lies about a length, stops half-way or
/// sends nothing within `timeouts.handshake` is closed with one line to `log`; the server keeps serving.
public final class PTPIPServer: Sendable {
    /// Runs one connection; returning (or throwing) ends it. A thrown error is logged.
    public typealias Handler = @Sendable (PTPIPResponderConnection, PTPIPPeerInfo) throws -> Void
    /// Decides, from its Init_Command_Request, whether an initiator is let in; may take its time (a question
    /// at a terminal): the initiator waits for its Init_Command_Ack or Init_Fail meanwhile.
    public typealias Gate = @Sendable (PTPIPPeerInfo) -> PTPIPAdmission

    /// The GUID the server reports unless told otherwise.
    public static let defaultGUID: [UInt8] = Array("mediashell-cam!!".utf8)

    public let host: String
    public let name: String
    public let guid: [UInt8]
    public let timeouts: PTPIPTimeouts
    /// Sockets served at once (each client uses two: commands and events). More are closed at once, so a
    /// client that opens connections without end cannot exhaust the server's threads and descriptors.
    public let maximumConnections: Int
    private let requestedPort: UInt16
    /// Failed handshakes (refused, dropped, garbage) one address may have in a minute; more, and its next
    /// connections that minute are closed unread. Nil: no limit.
    public let maximumFailuresPerMinute: Int?
    private let log: @Sendable (String) -> Void
    private let handler: Handler
    private let gate: Gate?

    /// The listener, the sockets served and the connections by number.
    private let serving = Locked(Serving())

    private struct Serving {
        var listener: Socket?
        var acceptThread: JoinableThread?
        var stopping = false
        var workers: [Int: Worker] = [:]
        var nextWorkerID = 0
        var connections: [UInt32: PTPIPResponderConnection] = [:]
        var nextConnectionNumber: UInt32 = 1
        /// Each address's failed handshakes within the last minute, by the clock of `timeouts`.
        var failures: [String: [Double]] = [:]
        /// Addresses told of in the log as over the limit, until their minute has passed.
        var throttled: Set<String> = []
    }

    /// One accepted socket and the thread serving it.
    private struct Worker {
        let socket: Socket
        var thread: JoinableThread?
        var connection: PTPIPResponderConnection?
        var finished = false
    }

    /// - Parameters:
    ///   - host: an IPv4 address to listen on ("0.0.0.0" for every interface).
    ///   - port: 15740 is PTP/IP's; 0 lets the system choose (read `port` after `start`).
    ///   - name, guid: what Init_Command_Ack tells initiators about this device.
    ///   - log: receives one line per dropped socket or failed connection.
    ///   - gate: who is let in; nil lets in every initiator.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 15740, name: String = "mediashell", guid: [UInt8] = defaultGUID,
        timeouts: PTPIPTimeouts = PTPIPTimeouts(), maximumConnections: Int = 128, maximumFailuresPerMinute: Int? = nil,
        log: @escaping @Sendable (String) -> Void = { _ in }, gate: Gate? = nil, handler: @escaping Handler
    ) {
        self.maximumConnections = max(1, maximumConnections)
        self.maximumFailuresPerMinute = maximumFailuresPerMinute.map { max(1, $0) }
        self.gate = gate
        self.host = host
        self.requestedPort = port
        self.name = name
        self.guid = guid
        self.timeouts = timeouts
        self.log = log
        self.handler = handler
    }

    /// The port listened on: the one the system chose when 0 was asked for, once started.
    public var port: UInt16 {
        serving.withLock { $0.listener?.localPort } ?? requestedPort
    }

    /// "127.0.0.1:15740"
    public var address: String { "\(host):\(port)" }

    /// Binds and starts accepting. Throws `PTPError.system` when the address cannot be listened on.
    public func start() throws {
        let socket = try translatingSystemErrors { () throws(SystemError) in try Socket.listen(host: host, port: requestedPort) }
        try serving.withLock { serving in
            guard serving.listener == nil, !serving.stopping else {
                socket.close()
                throw PTPError.misuse(.startedTwice(server: "PTP/IP", address: "\(host):\(requestedPort)"))
            }
            serving.listener = socket
            serving.acceptThread = try translatingSystemErrors { () throws(SystemError) in
                try JoinableThread(name: "ptpip-accept") { [self] in acceptLoop(socket) }
            }
        }
    }

    /// Stops listening, ends every connection and waits until all of the server's threads are gone
    /// and its descriptors closed.
    public func stop() {
        let (listener, acceptThread): (Socket?, JoinableThread?) = serving.withLock {
            $0.stopping = true
            return ($0.listener, $0.acceptThread)
        }
        listener?.shutdown()
        acceptThread?.join()
        listener?.close()
        while true {
            let (remaining, connections): ([Worker], [PTPIPResponderConnection]) = serving.withLock {
                let all = Array($0.workers.values)
                $0.workers.removeAll()
                return (all, all.compactMap(\.connection))
            }
            if remaining.isEmpty { break }
            connections.forEach { $0.close() }
            remaining.forEach { $0.socket.shutdown() }
            for worker in remaining { worker.thread?.join() }
        }
    }

    deinit { stop() }

    // MARK: Accepting

    private func acceptLoop(_ listener: Socket) {
        listener.acceptEach(stopping: { serving.withLock { $0.stopping } }, failed: { log("ptpip: \($0)") }) { socket in
            reapFinishedWorkers()
            if isThrottled(socket.peer) {
                socket.close()
                return
            }
            serving.withLock { serving in
                if serving.stopping {
                    socket.close()
                    return
                }
                if serving.workers.count >= maximumConnections {
                    log("ptpip: refused \(socket.peer): \(maximumConnections) connections already open")
                    socket.close()
                    return
                }
                let id = serving.nextWorkerID
                serving.nextWorkerID += 1
                // The thread starts at once but finds its worker entry only once this lock is released.
                do {
                    let thread = try JoinableThread(name: "ptpip-conn") { [self] in serve(socket, id: id) }
                    serving.workers[id] = Worker(socket: socket, thread: thread)
                } catch {
                    socket.close()
                    log("ptpip: \(socket.peer): \(error)")
                }
            }
        }
    }

    /// Joins the threads of connections that have ended, so none is left unjoined while the server runs.
    private func reapFinishedWorkers() {
        let done: [Worker] = serving.withLock { serving in
            let ids = serving.workers.filter { $0.value.finished }.map(\.key)
            return ids.compactMap { serving.workers.removeValue(forKey: $0) }
        }
        for worker in done { worker.thread?.join() }
    }

    // MARK: One socket

    private func serve(_ socket: Socket, id: Int) {
        let stream = PacketStream(socket: socket, timeout: timeouts.read)
        defer {
            socket.close()
            serving.withLock { $0.workers[id]?.finished = true }
        }
        let first: PTPIPPacket?
        do {
            first = try stream.readControl(firstByteTimeout: timeouts.handshake)
        } catch {
            log("ptpip: \(socket.peer): dropped: \(describe(error))")
            handshakeFailed(socket.peer)
            return
        }
        switch first {
        case nil:
            log("ptpip: \(socket.peer): closed before sending Init_Command_Request")
        case .initCommandRequest(let clientGUID, let clientName, let version)?:
            let peer = PTPIPPeerInfo(
                name: clientName, guid: clientGUID, address: stream.peer, connectionNumber: 0, protocolVersion: version)
            if case .refuse(let reason) = gate?(peer) ?? .admit {
                log("ptpip: \(stream.peer): refused '\(clientName)' GUID \(GUIDText.format(clientGUID)): Init_Fail (\(reason))")
                handshakeFailed(socket.peer)  // counted before the initiator hears of it, so its next try sees it
                try? stream.write(.initFail(reason: reason.rawValue))
                return
            }
            runConnection(worker: id, stream: stream, clientName: clientName, clientGUID: clientGUID, version: version)
        case .initEventRequest(let number)?:
            attachEvents(stream, number: number)
        case let other?:
            log("ptpip: \(socket.peer): dropped: sent \(other.type) instead of Init_Command_Request")
            handshakeFailed(socket.peer)
        }
    }

    // MARK: Failed handshakes

    /// The address part of "192.168.1.20:40122".
    private static func host(of peer: String) -> String {
        peer.lastIndex(of: ":").map { String(peer[..<$0]) } ?? peer
    }

    private func handshakeFailed(_ peer: String) {
        guard let maximumFailuresPerMinute else { return }
        let now = timeouts.clock.now()
        serving.withLock { serving in
            let address = Self.host(of: peer)
            var recent = (serving.failures[address] ?? []).filter { now - $0 < 60 }
            recent.append(now)
            serving.failures[address] = Array(recent.suffix(maximumFailuresPerMinute))
            // Addresses that stopped failing are forgotten, so the table stays as small as the attack.
            if serving.failures.count > 4096 { serving.failures = serving.failures.filter { now - ($0.value.last ?? 0) < 60 } }
        }
    }

    /// True when `peer`'s address failed its handshake `maximumFailuresPerMinute` times within the last
    /// minute (said once in the log until the minute has passed).
    private func isThrottled(_ peer: String) -> Bool {
        guard let maximumFailuresPerMinute else { return false }
        let address = Self.host(of: peer)
        let now = timeouts.clock.now()
        let (throttled, firstTime, count): (Bool, Bool, Int) = serving.withLock { serving in
            let recent = (serving.failures[address] ?? []).filter { now - $0 < 60 }
            serving.failures[address] = recent.isEmpty ? nil : recent
            guard recent.count >= maximumFailuresPerMinute else {
                serving.throttled.remove(address)
                return (false, false, recent.count)
            }
            return (true, serving.throttled.insert(address).inserted, recent.count)
        }
        if throttled && firstTime {
            log("ptpip: \(address): \(count) failed handshakes within a minute; its connections are closed unread until the minute has passed")
        }
        return throttled
    }

    private func runConnection(
        worker: Int, stream: PacketStream, clientName: String, clientGUID: [UInt8], version: UInt32
    ) {
        let (number, connection): (UInt32, PTPIPResponderConnection?) = serving.withLock { serving in
            if serving.stopping { return (0, nil) }
            let number = serving.nextConnectionNumber
            serving.nextConnectionNumber = number == UInt32.max ? 1 : number + 1
            let peer = PTPIPPeerInfo(
                name: clientName, guid: clientGUID, address: stream.peer, connectionNumber: number,
                protocolVersion: version)
            let connection = PTPIPResponderConnection(command: stream, peer: peer, timeouts: timeouts)
            serving.connections[number] = connection
            serving.workers[worker]?.connection = connection
            return (number, connection)
        }
        guard let connection else { return }
        defer {
            connection.close()
            serving.withLock { $0.connections[number] = nil }
        }
        let label = "ptpip: connection \(number) from \(stream.peer) (\(clientName))"
        do {
            try stream.write(
                .initCommandAck(connectionNumber: number, guid: guid, name: name, version: ptpipProtocolVersion))
        } catch {
            log("\(label): \(describe(error))")
            return
        }
        do {
            try handler(connection, connection.peer)
        } catch {
            log("\(label): \(describe(error))")
        }
    }

    private func attachEvents(_ stream: PacketStream, number: UInt32) {
        let connection = serving.withLock { $0.connections[number] }
        let attached: Bool
        do {
            attached = try connection?.attachEventSocket(stream) { try stream.write(.initEventAck) } ?? false
        } catch {
            log("ptpip: \(stream.peer): event connection for \(number): \(describe(error))")
            return
        }
        guard attached, let connection else {
            log("ptpip: \(stream.peer): refused an event connection for unknown connection number \(number)")
            try? stream.write(.initFail(reason: 1))
            return
        }
        if let error = connection.readEventSocket(stream) {
            log("ptpip: event connection \(number) from \(stream.peer): \(describe(error))")
        }
    }
}

/// A log line's account of an error: the peer here is an initiator, not a device.
func describe(_ error: Error) -> String {
    switch error {
    case PTPError.malformed(let why): "malformed packet: \(why)"
    case let error as PTPError: error.description
    default: "\(error)"
    }
}
