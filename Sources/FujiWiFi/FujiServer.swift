import Foundation
import POSIX
import PTP

/// A responder speaking Fujifilm's Wi-Fi framing, as a Fuji X body does in its "wireless communication"
/// mode: a command port (55740) where each connection opens with Fuji's init request, answered with the
/// fixed 0x44-byte packet, then containers; an event port (55741) that takes a host only once that
/// host's InitiateOpenCapture was answered OK (before, a connection to it is closed at once); and, given a
/// live-view feed, a live-view port (55742) that takes a host likewise and streams it frames (see
/// `FujiLiveViewFeed`) until it hangs up or TerminateOpenCapture.
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
    private let requestedLiveViewPort: UInt16
    private let liveView: FujiLiveViewFeed?
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
        var liveViewPort: UInt16 = 0
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
    ///   - liveViewPort: 55742 is Fuji's; 0 lets the system choose (read `liveViewPort`). Listened on only
    ///     with a `liveView` feed.
    ///   - name, guid: what the init answer tells hosts about this camera.
    public init(
        host: String = "127.0.0.1", port: UInt16 = FujiPorts.command, eventPort: UInt16 = FujiPorts.event,
        liveViewPort: UInt16 = FujiPorts.liveView, liveView: FujiLiveViewFeed? = nil, name: String = "mediashell",
        guid: [UInt8] = defaultGUID, timeouts: FujiTimeouts = FujiTimeouts(),
        maximumConnections: Int = 32, log: @escaping @Sendable (String) -> Void = { _ in }, gate: Gate? = nil,
        handler: @escaping Handler
    ) {
        self.host = host
        self.requestedPort = port
        self.requestedEventPort = eventPort
        self.requestedLiveViewPort = liveViewPort
        self.liveView = liveView
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
    /// The live-view port, likewise; nil without a live-view feed.
    public var liveViewPort: UInt16? {
        guard liveView != nil else { return nil }
        let bound = state.withLock { $0.liveViewPort }
        return bound == 0 ? requestedLiveViewPort : bound
    }

    /// Binds the ports and starts accepting. Throws `PTPError.system` when an address cannot be listened on.
    public func start() throws {
        var requested = [requestedPort, requestedEventPort]
        if liveView != nil { requested.append(requestedLiveViewPort) }
        let listeners = try Self.listenConsecutively(host: host, count: requested.count, when: requested.allSatisfy { $0 == 0 })
            ?? Self.listen(host: host, requested)
        let fresh = state.withLock { state -> Bool in
            guard state.listeners.isEmpty, !state.stopping else { return false }
            state.listeners = listeners
            state.commandPort = listeners[0].localPort
            state.eventPort = listeners[1].localPort
            state.liveViewPort = listeners.count > 2 ? listeners[2].localPort : 0
            return true
        }
        guard fresh else {
            listeners.forEach { $0.close() }
            throw PTPError.misuse(.startedTwice(server: "Fuji", address: "\(host):\(requestedPort)"))
        }
        do {
            var threads = [
                try JoinableThread(name: "fuji-accept") { [self] in acceptLoop(listeners[0], kind: .command) },
                try JoinableThread(name: "fuji-accept-events") { [self] in acceptLoop(listeners[1], kind: .events) },
            ]
            if listeners.count > 2 {
                threads.append(try JoinableThread(name: "fuji-accept-liveview") { [self] in acceptLoop(listeners[2], kind: .liveView) })
            }
            state.withLock { $0.acceptThreads = threads }
        } catch {
            stop()
            throw PTPError(error)
        }
    }

    /// Listens on each of `ports` (0: one the system chooses).
    private static func listen(host: String, _ ports: [UInt16]) throws -> [Socket] {
        var opened: [Socket] = []
        for port in ports {
            do {
                opened.append(try Socket.listen(host: host, port: port))
            } catch {
                opened.forEach { $0.close() }
                throw PTPError(error)
            }
        }
        return opened
    }

    /// When every port is the system's choice: `count` consecutive ports, the first chosen by the system, as
    /// a body's are (libgphoto2 finds the live-view port after the event port it is given). Nil when a few
    /// tries found none free: the ports are then chosen one by one.
    private static func listenConsecutively(host: String, count: Int, when wanted: Bool) -> [Socket]? {
        guard wanted else { return nil }
        for _ in 0..<8 {
            guard let first = try? Socket.listen(host: host, port: 0) else { return nil }
            var opened = [first]
            let base = Int(first.localPort)
            for next in 1..<count {
                guard base + next <= Int(UInt16.max), let socket = try? Socket.listen(host: host, port: UInt16(base + next)) else { break }
                opened.append(socket)
            }
            if opened.count == count { return opened }
            opened.forEach { $0.close() }
        }
        return nil
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

    /// Which port a socket was accepted on.
    private enum PortKind {
        case command, events, liveView
    }

    private func acceptLoop(_ listener: Socket, kind: PortKind) {
        listener.acceptEach(stopping: { state.withLock { $0.stopping } }, failed: { log("fuji: \($0)") }) { socket in
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
                return
            }
            do {
                let thread = try JoinableThread(name: kind == .command ? "fuji-conn" : kind == .events ? "fuji-events" : "fuji-liveview") {
                    [self] in
                    switch kind {
                    case .command: serve(worker, id: id)
                    case .events: serveEvents(worker)
                    case .liveView: serveLiveView(worker)
                    }
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

    /// A live-view socket: attached to the latest connection whose capture mode is open (else closed at
    /// once), then sent each new frame of the feed until the host hangs up (or sends anything: a host sends
    /// nothing here), the connection ends or its capture mode is closed.
    private func serveLiveView(_ worker: Worker) {
        let socket = worker.socket
        defer {
            socket.close()
            worker.finished.withLock { $0 = true }
        }
        guard let liveView else { return }
        let candidates = state.withLock { $0.connections.map(\.connection) }.reversed()
        guard let connection = candidates.first(where: { $0.attachLiveViewSocket(socket) }) else {
            log("fuji: \(socket.peer): live-view connection before InitiateOpenCapture, closed")
            return
        }
        defer { connection.detachLiveViewSocket(socket) }
        // A host that reads slowly gets the frames of now, not those the kernel would queue for it.
        socket.limitSendBuffer(to: 64 << 10)
        let framed = FramedSocket(socket: socket, timeout: timeouts.read, controlCapacity: 64)
        var last: Int?
        do {
            while connection.isLiveViewing(socket), !state.withLock({ $0.stopping }) {
                if let frame = liveView.frame(last) {
                    last = frame.number
                    try framed.send(FujiLiveViewFeed.packet(frame.jpeg))
                } else if try framed.hasInput(timeout: liveView.interval / 2) {
                    return
                }
            }
        } catch {
            log("fuji: live view to \(socket.peer) ended: \(error)")
        }
    }
}

/// The frames a `FujiServer` streams on its live-view port: `frame(last)` gives the newest frame when it is
/// newer than frame `last` (nil: none yet), asked again every half `interval` seconds.
public struct FujiLiveViewFeed: Sendable {
    public let interval: TimeInterval
    public let frame: @Sendable (_ last: Int?) -> (number: Int, jpeg: [UInt8])?

    public init(interval: TimeInterval, frame: @escaping @Sendable (_ last: Int?) -> (number: Int, jpeg: [UInt8])?) {
        self.interval = interval
        self.frame = frame
    }

    /// The header a body puts between a packet's length and its JPEG (14 bytes, its content undocumented:
    /// sent as zeros).
    public static let headerSize = 14

    /// One packet as a body sends it: u32 length (itself included), the header, the JPEG.
    public static func packet(_ jpeg: [UInt8]) -> [UInt8] {
        let length = UInt32(truncatingIfNeeded: 4 + headerSize + jpeg.count)
        return (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) } + [UInt8](repeating: 0, count: headerSize) + jpeg
    }
}
