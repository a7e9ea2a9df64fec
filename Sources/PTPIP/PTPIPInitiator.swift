import Foundation
import POSIX
import PTP

/// The host side of PTP/IP: a command socket for transactions and an event socket read by a thread of
/// its own. Data phases are streamed between the socket and the sink or source in chunks of at most
/// 1 MiB, so memory stays flat whatever the size.
public final class PTPIPInitiator: InitiatorTransport, Sendable {
    /// A GUID of this process only, sent when the caller gives none (tests, tools). mediashell sends the
    /// computer's own (Connectors' `WiFiIdentity`): cameras pair with it, so it is never a shared constant.
    public static let processGUID: [UInt8] = GUIDText.random()

    /// What the device said about itself in Init_Command_Ack.
    public let deviceName: String
    public let deviceGUID: [UInt8]
    /// The connection number the device assigned (Init_Command_Ack), used for the event socket.
    public let connectionNumber: UInt32
    public let timeouts: PTPIPTimeouts

    private let command: PacketStream
    private let events: EventChannel
    /// One transaction at a time; reentrant so a sink that closes the transport cannot deadlock it. Lock
    /// order: a transaction holds it while it takes `state` and the command stream's buffer, never the reverse.
    private let transactionLock = ReentrantMutex()
    private let state = Locked(ConnectionState())

    private struct ConnectionState {
        var closed = false
        /// Set when a transaction failed in a way that leaves the stream out of step.
        var brokenBecause: EarlierFailure?
        var eventThread: JoinableThread?
    }

    private init(
        command: PacketStream, events: PacketStream, deviceName: String, deviceGUID: [UInt8],
        connectionNumber: UInt32, timeouts: PTPIPTimeouts
    ) {
        self.command = command
        self.events = EventChannel(events, clock: timeouts.clock)
        self.deviceName = deviceName
        self.deviceGUID = deviceGUID
        self.connectionNumber = connectionNumber
        self.timeouts = timeouts
    }

    /// Connects to a PTP/IP responder: the command socket and Init_Command_Request (answered by
    /// Init_Command_Ack, or Init_Fail: refused), then the event socket and Init_Event_Request. With a
    /// `trace`, each connection and Init packet is recorded; a reply that never comes is
    /// `PTPError.unanswered` naming the packet awaited and the one sent.
    /// - Parameters:
    ///   - eventPort: the event socket's port; nil uses `port`.
    ///   - name: the friendly name the device shows; nil sends this machine's host name.
    ///   - guid: 16 bytes identifying this host.
    ///   - firstContact: for a camera that has not seen this host before: Init_Command_Ack may wait for its
    ///     user's confirmation, that long; nil waits `timeouts.read`.
    /// A responder that answers with Init_Fail is `PTPIPRefusal` (its reason); an HTTP server that answers
    /// is `HTTPServerAnswer`.
    public static func connect(
        host: String, port: UInt16 = 15740, eventPort: UInt16? = nil, name: String? = nil,
        guid: [UInt8] = processGUID, timeouts: PTPIPTimeouts = PTPIPTimeouts(), trace: PTPTrace? = nil,
        firstContact: FirstContactWait? = nil
    ) throws -> PTPIPInitiator {
        let steps = PTPIPHandshakeTrace(trace: trace)
        let commandPeer = "\(host):\(port)"
        let eventPeer = "\(host):\(eventPort ?? port)"
        steps.connecting(commandPeer, socket: "command")
        let commandSocket: Socket
        do {
            commandSocket = try translatingSystemErrors { () throws(SystemError) in
                try Socket.connect(host: host, port: port, timeout: timeouts.connect)
            }
        } catch {
            steps.failed(error)
            throw error
        }
        let command = PacketStream(socket: commandSocket, timeout: timeouts.read)
        var eventSocket: Socket?
        do {
            let request = PTPIPPacket.initCommandRequest(
                guid: guid, name: name ?? localHostName() ?? "mediashell", version: ptpipProtocolVersion)
            try command.write(request)
            steps.sent(request, to: commandPeer)
            let reply = try awaitReply(
                on: command, awaited: .initCommandAck, after: request, peer: commandPeer, timeouts: timeouts, steps: steps,
                firstContact: firstContact)
            guard case .initCommandAck(let number, let deviceGUID, let deviceName, _) = reply else {
                throw handshakeFailure(reply, peer: command.peer, request: "Init_Command_Request")
            }
            steps.connecting(eventPeer, socket: "event")
            let socket = try translatingSystemErrors { () throws(SystemError) in
                try Socket.connect(host: host, port: eventPort ?? port, timeout: timeouts.connect)
            }
            eventSocket = socket
            let events = PacketStream(socket: socket, timeout: timeouts.read)
            let eventRequest = PTPIPPacket.initEventRequest(connectionNumber: number)
            try events.write(eventRequest)
            steps.sent(eventRequest, to: eventPeer)
            let eventReply = try awaitReply(
                on: events, awaited: .initEventAck, after: eventRequest, peer: eventPeer, timeouts: timeouts, steps: steps)
            guard case .initEventAck = eventReply else {
                throw handshakeFailure(eventReply, peer: events.peer, request: "Init_Event_Request")
            }
            let initiator = PTPIPInitiator(
                command: command, events: events, deviceName: deviceName, deviceGUID: deviceGUID,
                connectionNumber: number, timeouts: timeouts)
            try initiator.startEventThread()
            return initiator
        } catch {
            steps.failed(error)
            commandSocket.close()
            eventSocket?.close()
            throw error
        }
    }

    /// The packet that answers `request`, recorded in the trace; a wait that runs out is the step unanswered.
    /// With `firstContact`, the wait is its own, and its `onWaiting` hears when the answer is slow to come.
    private static func awaitReply(
        on stream: PacketStream, awaited: PTPIPPacketType, after request: PTPIPPacket, peer: String,
        timeouts: PTPIPTimeouts, steps: PTPIPHandshakeTrace, firstContact: FirstContactWait? = nil
    ) throws -> PTPIPPacket? {
        let total = firstContact?.seconds ?? timeouts.read
        let reply: PTPIPPacket?
        do {
            if let firstContact {
                do {
                    reply = try stream.readControl(firstByteTimeout: firstContact.notice)
                } catch let error as PTPError where error.isTimeout {
                    firstContact.onWaiting(firstContact.seconds)
                    reply = try stream.readControl(firstByteTimeout: max(firstContact.seconds - firstContact.notice, 0.001))
                }
            } else {
                reply = try stream.readControl(firstByteTimeout: total)
            }
        } catch let error as PTPError where error.isTimeout {
            throw PTPError.unanswered(
                UnansweredStep(awaited: "\(awaited)", sent: "\(request.type)", peer: peer, seconds: total))
        } catch PTPError.malformed(let malformation) {
            // Not a packet at all: an HTTP server's status line is said as one, anything else as what failed.
            if let http = HTTPServerAnswer(stream.unreadBytes(limit: 128), peer: peer) { throw http }
            throw PTPError.malformed(malformation)
        }
        if let reply { steps.received(reply, from: peer) }
        return reply
    }

    private static func handshakeFailure(_ reply: PTPIPPacket?, peer: String, request: String) -> Error {
        switch reply {
        case nil:
            PTPError.connectionClosed(.hungUpInsteadOfAnswering(peer: peer, request: request))
        case .initFail(let reason)?:
            PTPIPRefusal(peer: peer, reason: InitFailReason(rawValue: reason))
        case let other?:
            PTPError.protocolViolation(
                ProtocolViolation(.unexpected(sent: "\(other.type)", expected: .answer(to: request)), peer: peer))
        }
    }

    // MARK: Events

    public func setEventHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) {
        events.setHandler(handler)
    }

    private func startEventThread() throws {
        // The thread holds the channel, not the initiator, so dropping the initiator still closes it.
        let events = self.events
        let thread = try translatingSystemErrors { () throws(SystemError) in try JoinableThread(name: "ptpip-events") { events.run() } }
        state.withLock { $0.eventThread = thread }
    }

    /// Sends a Ping on the event socket and waits for the device's Pong: proves the device is alive.
    public func ping(timeout: TimeInterval? = nil) throws {
        try checkOpen()
        try events.ping(timeout: timeout ?? timeouts.read)
    }

    // MARK: Transactions

    public func transact(_ command: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> PTPResponse {
        try transactionLock.withLock {
            try checkOpen()
            let outcome = try EarlierFailure.noting(command.code, keep: { failure in
                state.withLock { if $0.brokenBecause == nil { $0.brokenBecause = failure } }
            }) {
                try run(command, dataOut: dataOut, dataIn: dataIn)
            }
            if let deferred = outcome.deferred { throw deferred }
            return outcome.response
        }
    }

    private func checkOpen() throws {
        let (closed, brokenBecause) = state.withLock { ($0.closed, $0.brokenBecause) }
        if closed { throw PTPError.connectionClosed(.closedHere(transport: "PTP/IP", peer: command.peer, during: nil)) }
        if let brokenBecause {
            throw PTPError.connectionClosed(.unusable(transport: "PTP/IP", peer: command.peer, after: "\(brokenBecause)"))
        }
    }

    /// One transaction. Errors thrown from here leave the stream out of step; an error of the sink, or a
    /// data phase cut short, comes back as `deferred` once the response is in and the stream is in step.
    private func run(
        _ request: PTPCommand, dataOut: DataSource?, dataIn: DataSink?
    ) throws -> (response: PTPResponse, deferred: Error?) {
        let id = request.transactionID
        let operation = request.code
        let peer = command.peer
        try command.write(.commandRequest(dataPhase: dataOut == nil ? .noneOrIn : .out, command: request))
        if let dataOut { _ = try command.writeDataPhase(transactionID: id, source: dataOut) }

        var started = false
        var expected: UInt64?
        var received: UInt64 = 0
        var sawEndData = false
        var sinkError: Error?
        var cancelSent = false

        func sinkFailed(_ error: Error) throws {
            sinkError = error
            // Ask the device to stop sending; one that ignores Cancel is drained all the same.
            if !cancelSent {
                cancelSent = true
                try command.write(.cancel(transactionID: id))
            }
        }

        func violation(_ breach: ProtocolViolation.Breach) -> PTPError {
            .protocolViolation(ProtocolViolation(breach, operation: operation, peer: peer))
        }

        while true {
            guard let incoming = try command.read(firstByteTimeout: timeouts.read) else {
                throw PTPError.connectionClosed(.hungUp(peer: peer, moment: .during("\(operation)")))
            }
            switch incoming {
            case .control(.startData(let transactionID, let total)):
                guard transactionID == id else {
                    throw violation(.wrongTransaction(packet: "Start_Data", found: transactionID, expected: id))
                }
                guard !started else { throw violation(.repeated(packet: "Start_Data")) }
                started = true
                expected = total == UInt64.max ? nil : total
                if let dataIn {
                    do { try dataIn.begin(expectedLength: expected) } catch { try sinkFailed(error) }
                }

            case .dataHead(let last, let transactionID, let length):
                guard transactionID == id else {
                    throw violation(.wrongTransaction(packet: "data", found: transactionID, expected: id))
                }
                guard started else { throw violation(.dataBeforeItsStart) }
                guard !sawEndData else { throw violation(.dataAfterItsEnd) }
                if let expected, received + UInt64(length) > expected {
                    throw PTPError.malformed(Malformation(
                        "PTP/IP data phase", .overrun(sent: received + UInt64(length), announced: expected),
                        operation: operation, peer: peer))
                }
                try command.readPayload(length) { chunk in
                    guard sinkError == nil, let dataIn else { return }
                    do { try dataIn.write(chunk) } catch { try sinkFailed(error) }
                }
                received += UInt64(length)
                if last { sawEndData = true }

            case .control(.commandResponse(let response)):
                guard response.transactionID == id else {
                    throw violation(.wrongTransaction(packet: "a response", found: response.transactionID, expected: id))
                }
                if let sinkError { return (response, sinkError) }
                let complete = !started || (expected.map { received == $0 } ?? sawEndData)
                if !complete, response.code == .ok {
                    return (response, violation(.dataPhaseEnded(received: received, expected: expected)))
                }
                return (response, nil)

            case .control(.ping):
                try command.write(.pong)

            case .control(let other):
                throw violation(.unexpected(sent: "\(other.type)", expected: .transactionContinuation))
            }
        }
    }

    // MARK: Closing

    /// Shuts both sockets down, waits for the event thread to end and releases the descriptors.
    public func close() {
        let (first, thread): (Bool, JoinableThread?) = state.withLock { state in
            if state.closed { return (false, nil) }
            state.closed = true
            return (true, state.eventThread)
        }
        guard first else { return }
        events.markClosing()
        command.socket.shutdown()
        events.stream.socket.shutdown()
        if let thread {
            thread.join()
            // Called from the event handler: the event thread releases its socket when it ends.
            if !thread.isCurrent { events.closeSocket() }
        } else {
            events.closeSocket()
        }
        transactionLock.withLock { command.socket.close() }
    }

    deinit { close() }
}

/// The initiator's event socket and what its reader thread needs: events go to the handler, Pings are
/// answered with Pongs, Pongs wake `ping`.
private final class EventChannel: Sendable {
    let stream: PacketStream
    private let delivery = Locked(Delivery())
    /// Serializes what is written on the event socket (a Ping, a Pong) with its closing: two packets never
    /// interleave and none is written on a closed descriptor.
    private let writeTurn = Locked.turn()
    private let pongs: PongWaiter

    private struct Delivery {
        var handler: (@Sendable (PTPEvent) -> Void)?
        var stopped = false
    }

    init(_ stream: PacketStream, clock: any WaitClock) {
        self.stream = stream
        pongs = PongWaiter(clock: clock)
    }

    func setHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) {
        delivery.withLock { $0.handler = handler }
    }

    /// No more events are delivered; the reader thread releases the socket when it ends.
    func markClosing() {
        delivery.withLock {
            $0.handler = nil
            $0.stopped = true
        }
    }

    func ping(timeout: TimeInterval) throws {
        let before = pongs.current
        try writeTurn.withLock { _ in try stream.write(.ping) }
        try pongs.wait(after: before, timeout: timeout, peer: stream.peer)
    }

    /// Releases the descriptor once no Ping or Pong is being written on it.
    func closeSocket() {
        writeTurn.withLock { _ in stream.socket.close() }
    }

    /// The event thread's loop; ends when the socket ends or fails.
    func run() {
        defer {
            pongs.close()
            if delivery.withLock({ $0.stopped }) { closeSocket() }
        }
        while true {
            let incoming: IncomingPacket?
            do {
                incoming = try stream.read(firstByteTimeout: nil)
            } catch {
                return
            }
            switch incoming {
            case nil:
                return
            case .control(.event(let event)):
                delivery.withLock { $0.handler }?(event)
            case .control(.ping):
                do { try writeTurn.withLock { _ in try stream.write(.pong) } } catch { return }
            case .control(.pong):
                pongs.received()
            case .control:
                continue  // a Cancel for a transaction already over, or a courtesy: nothing to do
            case .dataHead(_, _, let length):
                do { try stream.readPayload(length) { _ in } } catch { return }
            }
        }
    }
}
