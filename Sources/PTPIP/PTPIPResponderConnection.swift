import Foundation
import POSIX
import PTP

/// Who connected to a `PTPIPServer`, from its Init_Command_Request.
public struct PTPIPPeerInfo: Equatable, Sendable {
    /// The initiator's friendly name (gphoto2 sends the host name).
    public var name: String
    public var guid: [UInt8]
    /// "127.0.0.1:40122"
    public var address: String
    /// The number this server assigned, which the initiator quotes on its event socket.
    public var connectionNumber: UInt32
    /// As sent (`major << 16 | minor`; gphoto2 and the standard send 0x00010000).
    public var protocolVersion: UInt32

    public init(name: String, guid: [UInt8], address: String, connectionNumber: UInt32, protocolVersion: UInt32) {
        self.name = name
        self.guid = guid
        self.address = address
        self.connectionNumber = connectionNumber
        self.protocolVersion = protocolVersion
    }

    /// The GUID as 32 hexadecimal digits, as logs show it and `--allow` takes it.
    public var guidText: String { GUIDText.format(guid) }
}

/// A gate's answer to an initiator (`PTPIPServer.Gate`): let in, or refused with Init_Fail's reason.
public enum PTPIPAdmission: Equatable, Sendable {
    case admit
    case refuse(InitFailReason)
}

/// The device side of one PTP/IP connection, handed to the server's handler.
///
/// - Events sent before the initiator has opened its event socket are queued (up to 64, oldest dropped)
///   and sent as soon as it is attached; events sent after the initiator closed its event socket are dropped.
/// - A Cancel received while `sendData` runs (on either socket) ends the data phase early with an empty
///   End_Data; the transport then answers the transaction with TransactionCancelled itself and throws
///   `CancellationError`. A `sendResponse` for that transaction afterwards is ignored.
/// - Pings are answered with Pongs on the socket they came on.
public final class PTPIPResponderConnection: StreamingResponderTransport, Sendable {
    public let peer: PTPIPPeerInfo
    public static let maxQueuedEvents = 64

    private let command: PacketStream
    private let timeouts: PTPIPTimeouts
    /// What the threads of the connection share; never held while waiting on the network, except to attach
    /// the event socket. Lock order: `exchange`, then `eventWriteTurn`.
    private let exchange = Locked(Exchange())
    /// Serializes writes on the event socket (events from any thread, Pongs and Pings) with its closing.
    private let eventWriteTurn = Locked.turn()
    private let pongs: PongWaiter

    private struct Exchange {
        var eventStream: PacketStream?
        var eventSocketEnded = false
        var queuedEvents: [PTPEvent] = []
        var closed = false
        /// The transaction the initiator asked to cancel (Cancel on the event socket).
        var cancelRequested: UInt32?
        /// A transaction the transport already answered (TransactionCancelled).
        var answeredByTransport: UInt32?
        /// The last transaction with a data phase from the initiator: a trailing empty End_Data is tolerated.
        var lastDataOut: UInt32?
        /// The last command received, whose data phase is drained if the caller did not take it.
        var lastCommand: UInt32?
    }

    init(command: PacketStream, peer: PTPIPPeerInfo, timeouts: PTPIPTimeouts) {
        self.command = command
        self.peer = peer
        self.timeouts = timeouts
        pongs = PongWaiter(clock: timeouts.clock)
    }

    // MARK: Commands

    public func receiveCommand() throws -> IncomingCommand? {
        while true {
            // Between commands the initiator may stay silent as long as it likes.
            guard let incoming = try command.read(firstByteTimeout: nil) else { return nil }
            let (lastCommand, lastDataOut) = exchange.withLock { ($0.lastCommand, $0.lastDataOut) }
            switch incoming {
            case .control(.commandRequest(let dataPhase, let request)):
                exchange.withLock {
                    $0.cancelRequested = nil
                    $0.answeredByTransport = nil
                    $0.lastCommand = request.transactionID
                }
                return IncomingCommand(request, hasDataOut: dataPhase == .out)
            case .control(.startData(let transactionID, let total)) where transactionID == lastCommand:
                // The caller answered without taking the data the initiator sent: drop it.
                do {
                    try readDataPhase(transactionID: transactionID, total: total, limit: 0, into: nil)
                } catch PTPError.dataTooLarge {}
            case .control(.ping):
                try command.write(.pong)
            case .control(.pong):
                pongs.received()
            case .control(.cancel):
                continue  // for a transaction already over
            case .dataHead(true, let transactionID, 0) where transactionID == lastDataOut:
                continue  // the empty End_Data after a data phase we already took whole
            case .dataHead(let last, _, _):
                throw PTPError.protocolViolation(
                    ProtocolViolation(.unexpected(sent: last ? "End_Data" : "Data", expected: .command), peer: peer.address))
            case .control(let other):
                throw PTPError.protocolViolation(
                    ProtocolViolation(.unexpected(sent: "\(other.type)", expected: .command), peer: peer.address))
            }
        }
    }

    public func receiveData(transactionID: UInt32, limit: UInt64, into sink: DataSink) throws {
        let address = peer.address
        guard let first = try command.read(firstByteTimeout: timeouts.read) else {
            throw PTPError.connectionClosed(.hungUp(peer: address, moment: .beforeItsDataPhase))
        }
        guard case .control(.startData(let startID, let total)) = first else {
            throw PTPError.protocolViolation(
                ProtocolViolation(.unexpected(sent: first.kindName, expected: .dataPhase), peer: address))
        }
        guard startID == transactionID else {
            throw PTPError.protocolViolation(ProtocolViolation(
                .wrongTransaction(packet: "Start_Data", found: startID, expected: transactionID), peer: address))
        }
        try readDataPhase(transactionID: transactionID, total: total, limit: limit, into: sink)
    }

    /// The rest of a data phase after its Start_Data, streamed into `sink`. More than `limit` bytes, or an
    /// error from the sink, are read to the end and dropped, then thrown (`PTPError.dataTooLarge`, or the
    /// sink's error): the connection stays in step for the response.
    private func readDataPhase(transactionID: UInt32, total: UInt64, limit: UInt64, into sink: DataSink?) throws {
        let address = peer.address
        exchange.withLock { $0.lastDataOut = transactionID }
        let known = total != UInt64.max
        var failure: Error?
        var tooLarge = known && total > limit
        func deliver(_ body: () throws -> Void) {
            guard failure == nil, !tooLarge else { return }
            do { try body() } catch { failure = error }
        }
        deliver { try sink?.begin(expectedLength: known ? total : nil) }
        // gphoto2 sends no End_Data at all for an empty data phase.
        if total == 0 {
            if let failure { throw failure }
            return
        }
        var received: UInt64 = 0
        while true {
            guard let incoming = try command.read(firstByteTimeout: timeouts.read) else {
                throw PTPError.connectionClosed(.hungUp(peer: address, moment: .duringItsDataPhase))
            }
            switch incoming {
            case .dataHead(let last, let id, let length):
                guard id == transactionID else {
                    throw PTPError.protocolViolation(
                        ProtocolViolation(.wrongTransaction(packet: "data", found: id, expected: transactionID), peer: address))
                }
                if known, received + UInt64(length) > total {
                    throw PTPError.malformed(Malformation(
                        "PTP/IP data phase", .overrun(sent: received + UInt64(length), announced: total), peer: address))
                }
                if received + UInt64(length) > limit { tooLarge = true }
                try command.readPayload(length) { chunk in deliver { try sink?.write(chunk) } }
                received += UInt64(length)
                if last || received == total {
                    if tooLarge { throw PTPError.dataTooLarge(limit: limit, announced: known ? total : received) }
                    if let failure { throw failure }
                    return
                }
            case .control(.ping):
                try command.write(.pong)
            case .control(.cancel(let id)) where id == transactionID:
                throw CancellationError()
            case .control(let other):
                throw PTPError.protocolViolation(
                    ProtocolViolation(.unexpected(sent: "\(other.type)", expected: .dataPhase), peer: address))
            }
        }
    }

    public func sendData(transactionID: UInt32, source: DataSource) throws {
        let completed = try command.writeDataPhase(transactionID: transactionID, source: source) {
            try initiatorCancelled(transactionID)
        }
        if !completed {
            try command.write(.commandResponse(PTPResponse(.transactionCancelled, transactionID: transactionID)))
            exchange.withLock { $0.answeredByTransport = transactionID }
            throw CancellationError()
        }
    }

    /// Whether the initiator asked to cancel `transactionID`: on the event socket (seen by its reader) or
    /// on the command socket, which is otherwise silent while we send.
    private func initiatorCancelled(_ transactionID: UInt32) throws -> Bool {
        if exchange.withLock({ $0.cancelRequested == transactionID }) { return true }
        while try command.hasInput(timeout: 0) {
            guard let incoming = try command.read(firstByteTimeout: timeouts.read) else {
                throw PTPError.connectionClosed(.hungUp(peer: peer.address, moment: .duringOurDataPhase))
            }
            switch incoming {
            case .control(.cancel(let id)) where id == transactionID: return true
            case .control(.cancel): continue
            case .control(.ping): try command.write(.pong)
            case .control(.pong): pongs.received()
            default:
                throw PTPError.protocolViolation(
                    ProtocolViolation(.unexpected(sent: incoming.kindName, expected: .silenceDuringOurData), peer: peer.address))
            }
        }
        return false
    }

    public func sendResponse(_ response: PTPResponse) throws {
        let alreadyAnswered = exchange.withLock {
            if $0.answeredByTransport == response.transactionID {
                $0.answeredByTransport = nil
                return true
            }
            return false
        }
        if alreadyAnswered { return }
        try command.write(.commandResponse(response))
    }

    // MARK: Events

    public func sendEvent(_ event: PTPEvent) throws {
        let stream: PacketStream? = try exchange.withLock { exchange in
            if exchange.closed { throw PTPError.connectionClosed(.closedHere(transport: nil, peer: peer.address, during: nil)) }
            if exchange.eventStream == nil, !exchange.eventSocketEnded {
                if exchange.queuedEvents.count >= PTPIPResponderConnection.maxQueuedEvents {
                    exchange.queuedEvents.removeFirst()
                }
                exchange.queuedEvents.append(event)
            }
            return exchange.eventStream
        }
        // Written outside `exchange`, so close() can shut the socket down under a writer the peer does not read.
        try eventWriteTurn.withLock { _ in try stream?.write(.event(event)) }
    }

    /// Sends a Ping on the event socket and waits for the initiator's Pong.
    public func ping(timeout: TimeInterval? = nil) throws {
        let before = pongs.current
        guard let stream = exchange.withLock({ $0.eventStream }) else {
            throw PTPError.connectionClosed(.noEventConnection(peer: peer.address))
        }
        try eventWriteTurn.withLock { _ in try stream.write(.ping) }
        try pongs.wait(after: before, timeout: timeout ?? timeouts.read, peer: peer.address)
    }

    /// Takes the initiator's event socket: `acknowledge` sends Init_Event_Ack, then queued events follow.
    /// False when this connection cannot take one (closed, or it has one already).
    /// `acknowledge` runs with `exchange` and `eventWriteTurn` held: it must take neither (the server's
    /// write of Init_Event_Ack on `stream` does not).
    func attachEventSocket(_ stream: PacketStream, acknowledge: () throws -> Void) throws -> Bool {
        try withoutActuallyEscaping(acknowledge) { acknowledge in
            nonisolated(unsafe) let acknowledge = acknowledge  // called on this thread, inside the locks
            return try exchange.withLock { exchange in
                if exchange.closed || exchange.eventStream != nil || exchange.eventSocketEnded { return false }
                let queued = exchange.queuedEvents
                try eventWriteTurn.withLock { _ in
                    try acknowledge()
                    // Queued events go first: later ones wait for this write turn.
                    for event in queued { try stream.write(.event(event)) }
                }
                exchange.queuedEvents.removeAll()
                exchange.eventStream = stream
                return true
            }
        }
    }

    /// Reads the attached event socket until it ends: Pings answered, Pongs noted, Cancels recorded.
    /// Returns what ended it when that was an error. Runs on the server thread that accepted the socket.
    func readEventSocket(_ stream: PacketStream) -> Error? {
        var failure: Error?
        loop: while true {
            do {
                guard let incoming = try stream.read(firstByteTimeout: nil) else { break loop }
                switch incoming {
                case .control(.ping):
                    try eventWriteTurn.withLock { _ in try stream.write(.pong) }
                case .control(.pong):
                    pongs.received()
                case .control(.cancel(let id)):
                    exchange.withLock { $0.cancelRequested = id }
                case .control(let other):
                    throw PTPError.protocolViolation(
                        ProtocolViolation(.unexpected(sent: "\(other.type)", expected: .eventTraffic), peer: peer.address))
                case .dataHead:
                    throw PTPError.protocolViolation(
                        ProtocolViolation(.unexpected(sent: "Data", expected: .eventTraffic), peer: peer.address))
                }
            } catch {
                failure = exchange.withLock { $0.closed } ? nil : error
                break loop
            }
        }
        exchange.withLock {
            $0.eventStream = nil
            $0.eventSocketEnded = true
        }
        // No write is under way while the write turn is held, so the descriptor cannot be reused under one.
        eventWriteTurn.withLock { _ in stream.socket.close() }
        pongs.close()
        return failure
    }

    // MARK: Closing

    /// Ends the connection: both sockets are shut down, which wakes whatever thread is reading them.
    /// The server releases the descriptors once its threads for this connection are done.
    public func close() {
        exchange.withLock {
            $0.closed = true
            $0.eventStream?.socket.shutdown()
            $0.queuedEvents.removeAll()
        }
        command.socket.shutdown()
    }

    var isClosed: Bool { exchange.withLock { $0.closed } }
}
