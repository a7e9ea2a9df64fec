import Foundation
import POSIX
import PTP

/// A responder speaking Fujifilm's Wi-Fi framing, as a Fuji X body does in its "wireless communication"
/// mode: a command port (55740) where each connection opens with Fuji's init request, answered with the
/// fixed 0x44-byte packet, then containers; and an event port (55741) that takes a host only once that
/// host's InitiateOpenCapture was answered OK (before, a connection to it is closed at once).
///
/// Each accepted socket gets a thread. A socket that sends garbage, a PTP/IP request (no answer, as a body),
/// a lying length, stops half-way or sends nothing within `timeouts.handshake` is closed with one line to
/// `log`; the server keeps serving.
public final class FujiServer: Sendable {
    /// Runs one connection; returning (or throwing) ends it. A thrown error is logged.
    public typealias Handler = @Sendable (FujiResponderConnection, FujiPeerInfo) throws -> Void
    /// Decides from its init request whether a host is let in: nil lets it in, a reason refuses it (Init_Fail).
    public typealias Gate = @Sendable (FujiPeerInfo) -> UInt32?

    /// The GUID the server reports unless told otherwise.
    public static let defaultGUID: [UInt8] = Array("mediashell-fuji!".utf8)

    public let host: String
    public let name: String
    public let guid: [UInt8]
    public let timeouts: FujiTimeouts
    /// Sockets served at once; more are closed at once.
    public let maximumConnections: Int
    private let requestedPort: UInt16
    private let requestedEventPort: UInt16
    private let log: @Sendable (String) -> Void
    private let handler: Handler
    private let gate: Gate?
    private let state = Locked(State())

    private struct State {
        var listeners: [Socket] = []
        var acceptThreads: [JoinableThread] = []
        var stopping = false
        var workers: [Int: Worker] = [:]
        var nextWorkerID = 0
        /// Connections in the order they opened: an event socket goes to the latest one in capture mode.
        var connections: [(id: Int, connection: FujiResponderConnection)] = []
        var commandPort: UInt16 = 0
        var eventPort: UInt16 = 0
    }

    /// One accepted socket and the thread serving it.
    private final class Worker: Sendable {
        let socket: Socket
        let thread = Locked<JoinableThread?>(nil)
        let finished = Locked(false)
        init(socket: Socket) { self.socket = socket }
    }

    /// - Parameters:
    ///   - host: an IPv4 address to listen on ("0.0.0.0" for every interface).
    ///   - port: 55740 is Fuji's; 0 lets the system choose (read `port` after `start`).
    ///   - eventPort: 55741 is Fuji's; 0 lets the system choose (read `eventPort`).
    ///   - name, guid: what the init answer tells hosts about this camera.
    public init(
        host: String = "127.0.0.1", port: UInt16 = FujiPorts.command, eventPort: UInt16 = FujiPorts.event,
        name: String = "mediashell", guid: [UInt8] = defaultGUID, timeouts: FujiTimeouts = FujiTimeouts(),
        maximumConnections: Int = 32, log: @escaping @Sendable (String) -> Void = { _ in }, gate: Gate? = nil,
        handler: @escaping Handler
    ) {
        self.host = host
        self.requestedPort = port
        self.requestedEventPort = eventPort
        self.name = name
        self.guid = guid
        self.timeouts = timeouts
        self.maximumConnections = max(1, maximumConnections)
        self.log = log
        self.handler = handler
        self.gate = gate
    }

    /// The command port: the one the system chose when 0 was asked for, once started.
    public var port: UInt16 { state.withLock { $0.commandPort } == 0 ? requestedPort : state.withLock { $0.commandPort } }
    /// The event port, likewise.
    public var eventPort: UInt16 { state.withLock { $0.eventPort } == 0 ? requestedEventPort : state.withLock { $0.eventPort } }

    /// Binds both ports and starts accepting. Throws `PTPError.system` when an address cannot be listened on.
    public func start() throws {
        let command: Socket
        let events: Socket
        do {
            command = try Socket.listen(host: host, port: requestedPort)
        } catch {
            throw PTPError(error)
        }
        do {
            events = try Socket.listen(host: host, port: requestedEventPort)
        } catch {
            command.close()
            throw PTPError(error)
        }
        let fresh = state.withLock { state -> Bool in
            guard state.listeners.isEmpty, !state.stopping else { return false }
            state.listeners = [command, events]
            state.commandPort = command.localPort
            state.eventPort = events.localPort
            return true
        }
        guard fresh else {
            command.close()
            events.close()
            throw PTPError.misuse(.startedTwice(server: "Fuji", address: "\(host):\(requestedPort)"))
        }
        do {
            let commandThread = try JoinableThread(name: "fuji-accept") { [self] in acceptLoop(command, events: false) }
            let eventThread = try JoinableThread(name: "fuji-accept-events") { [self] in acceptLoop(events, events: true) }
            state.withLock { $0.acceptThreads = [commandThread, eventThread] }
        } catch {
            stop()
            throw PTPError(error)
        }
    }

    /// Stops listening, ends every connection and waits until all of the server's threads are gone.
    public func stop() {
        let (listeners, threads): ([Socket], [JoinableThread]) = state.withLock { state in
            state.stopping = true
            return (state.listeners, state.acceptThreads)
        }
        listeners.forEach { $0.shutdown() }
        threads.forEach { $0.join() }
        listeners.forEach { $0.close() }
        while true {
            let (workers, connections): ([Worker], [FujiResponderConnection]) = state.withLock { state in
                let all = Array(state.workers.values)
                state.workers.removeAll()
                return (all, state.connections.map(\.connection))
            }
            if workers.isEmpty { break }
            connections.forEach { $0.close() }
            workers.forEach { $0.socket.shutdown() }
            for worker in workers { worker.thread.withLock { $0 }?.join() }
        }
    }

    deinit { stop() }

    // MARK: Accepting

    private func acceptLoop(_ listener: Socket, events: Bool) {
        while true {
            let accepted: Socket?
            do {
                accepted = try listener.accept()
            } catch {
                if state.withLock({ $0.stopping }) { return }
                log("fuji: \(error)")
                continue
            }
            guard let socket = accepted else { return }
            reapFinishedWorkers()
            let worker = Worker(socket: socket)
            let id: Int? = state.withLock { state in
                if state.stopping || state.workers.count >= maximumConnections { return nil }
                let id = state.nextWorkerID
                state.nextWorkerID += 1
                state.workers[id] = worker
                return id
            }
            guard let id else {
                log("fuji: refused \(socket.peer): stopping, or \(maximumConnections) connections already open")
                socket.close()
                continue
            }
            do {
                let thread = try JoinableThread(name: events ? "fuji-events" : "fuji-conn") { [self] in
                    if events { serveEvents(worker) } else { serve(worker, id: id) }
                }
                worker.thread.withLock { $0 = thread }
            } catch {
                state.withLock { _ = $0.workers.removeValue(forKey: id) }
                socket.close()
                log("fuji: \(socket.peer): \(error)")
            }
        }
    }

    /// Joins the threads of connections that have ended.
    private func reapFinishedWorkers() {
        let done: [Worker] = state.withLock { state in
            let ids = state.workers.filter { $0.value.finished.withLock { $0 } }.map(\.key)
            return ids.compactMap { state.workers.removeValue(forKey: $0) }
        }
        for worker in done { worker.thread.withLock { $0 }?.join() }
    }

    // MARK: One socket

    private func serve(_ worker: Worker, id: Int) {
        let socket = worker.socket
        let stream = FujiStream(socket: socket, timeout: timeouts.read)
        defer {
            socket.close()
            worker.finished.withLock { $0 = true }
        }
        let request: FujiHandshake.Request
        do {
            guard let first = try stream.readHandshakePacket(firstByteTimeout: timeouts.handshake, what: "an init request") else {
                log("fuji: \(socket.peer): closed before sending its init request")
                return
            }
            // A PTP/IP initiator (or anything else) gets no answer: the connection is closed, as an X-T4 closes
            // it on any request that is not Fuji's. (Init_Fail would tell a PTP/IP client it was refused, which
            // it was not: it spoke the wrong protocol, and its client can find that out with Fuji's request.)
            request = try FujiHandshake.decodeRequest(first)
        } catch {
            log("fuji: \(socket.peer): dropped: \(error)")
            return
        }
        let peer = FujiPeerInfo(name: request.name, guid: request.guid, address: socket.peer)
        if let reason = gate?(peer) {
            log("fuji: \(socket.peer): refused '\(request.name)': Init_Fail (reason \(reason))")
            try? stream.write(FujiHandshake.fail(reason: reason))
            return
        }
        let answer = FujiHandshake.acknowledge(guid: guid, name: name)
        let connection = FujiResponderConnection(command: stream, peer: peer, timeouts: timeouts, acknowledge: answer)
        let admitted = state.withLock { state -> Bool in
            if state.stopping { return false }
            state.connections.append((id, connection))
            return true
        }
        guard admitted else { return }
        defer {
            connection.close()
            state.withLock { $0.connections.removeAll { $0.id == id } }
        }
        let label = "fuji: connection from \(socket.peer) (\(request.name))"
        do {
            try stream.write(answer)
            try handler(connection, peer)
        } catch {
            log("\(label): \(error)")
        }
    }

    /// An event socket: attached to the latest connection whose capture mode is open, else closed at once
    /// (a camera has no event port before InitiateOpenCapture).
    private func serveEvents(_ worker: Worker) {
        let socket = worker.socket
        defer {
            worker.finished.withLock { $0 = true }
        }
        let stream = FujiStream(socket: socket, timeout: timeouts.read)
        let candidates = state.withLock { $0.connections.map(\.connection) }.reversed()
        for connection in candidates where connection.isCaptureOpen {
            do {
                if try connection.attachEventSocket(stream) {
                    connection.readEventSocket(stream)
                    return
                }
            } catch {
                log("fuji: event connection from \(socket.peer): \(error)")
                socket.close()
                return
            }
        }
        log("fuji: \(socket.peer): event connection before InitiateOpenCapture, closed")
        socket.close()
    }
}
