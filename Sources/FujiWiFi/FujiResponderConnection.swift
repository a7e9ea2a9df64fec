import Foundation
import POSIX
import PTP

/// Who connected to a `FujiServer`, from its init request.
public struct FujiPeerInfo: Equatable, Sendable {
    /// The name the host gave itself (libgphoto2 sends the host name, Fuji's apps the phone's name).
    public var name: String
    public var guid: [UInt8]
    /// "127.0.0.1:40122"
    public var address: String

    public init(name: String, guid: [UInt8], address: String) {
        self.name = name
        self.guid = guid
        self.address = address
    }
}

/// The camera side of one Fuji Wi-Fi connection, handed to the server's handler.
///
/// - An init request sent again before the first command is answered again (libgphoto2 sends two).
/// - The host does not announce a data phase in its command: the operations that carry one from the host
///   are known (`dataOutOperations`), and a data container that comes for another is read and dropped.
/// - The event socket exists once InitiateOpenCapture was answered OK (as on a camera, which opens port
///   55741 only then) and the host connected it; events sent before are queued (up to 64, oldest dropped)
///   and sent when it is attached, events sent after the host closed it are dropped.
public final class FujiResponderConnection: StreamingResponderTransport, Sendable {
    public let peer: FujiPeerInfo
    public static let maximumQueuedEvents = 64

    /// Operations whose command is followed by a data container from the host.
    public static var dataOutOperations: Set<UInt16> { OperationCode.sendingDataToResponder }

    private let command: FujiStream
    private let timeouts: FujiTimeouts
    private let state = Locked(State())
    /// Serializes writes on the event socket (events come from any thread).
    private let eventWrites = Locked.turn()

    private struct State {
        var events: FujiStream?
        var eventSocketEnded = false
        var queued: [PTPEvent] = []
        var closed = false
        /// InitiateOpenCapture was answered OK (and TerminateOpenCapture not since): the event and live-view
        /// ports take this connection's host.
        var captureOpen = false
        /// The host's live-view socket, while frames are sent on it.
        var liveView: Socket?
        /// The last command received: its transaction (whose data container is dropped if nobody took it)
        /// and operation (which a data container repeats).
        var lastCommand: (transactionID: UInt32, code: UInt16)?
    }

    /// The init answer this connection was given, sent again for a repeated init request.
    private let acknowledge: [UInt8]

    init(command: FujiStream, peer: FujiPeerInfo, timeouts: FujiTimeouts, acknowledge: [UInt8]) {
        self.command = command
        self.peer = peer
        self.timeouts = timeouts
        self.acknowledge = acknowledge
    }

    /// True once InitiateOpenCapture was answered OK on this connection.
    public var isCaptureOpen: Bool { state.withLock { $0.captureOpen } }

    // MARK: Commands

    public func receiveCommand() throws -> IncomingCommand? {
        while true {
            // Between commands the host may stay silent as long as it likes. An init request again (before
            // the first command: libgphoto2 sends two) is answered as the first was.
            if state.withLock({ $0.lastCommand == nil }) {
                guard let repeated = try command.takeRepeatedInitRequest() else { return nil }
                if !repeated.isEmpty {
                    try command.write(acknowledge)
                    continue
                }
            }
            guard let header = try command.readHeader(firstByteTimeout: nil, waitingFor: "a command") else { return nil }
            switch header.kind {
            case .command:
                let parameters = try command.readParameters(header)
                state.withLock { $0.lastCommand = (header.transactionID, header.code) }
                let request = PTPCommand(OperationCode(rawValue: header.code), transactionID: header.transactionID, parameters: parameters)
                return IncomingCommand(request, hasDataOut: Self.dataOutOperations.contains(header.code))
            case .data where header.transactionID == state.withLock({ $0.lastCommand?.transactionID }):
                // Data for an operation answered without taking it: drop it.
                try command.readPayload(header.payloadLength) { _ in }
            default:
                throw PTPError.protocolViolation(
                    ProtocolViolation(.unexpected(sent: "a \(header.kind) container", expected: .command), peer: peer.address))
            }
        }
    }

    /// The host's data container, streamed into `sink`. More than `limit` bytes, or an error of the sink,
    /// is read to the end and dropped, then thrown: the connection stays in step for the response.
    public func receiveData(transactionID: UInt32, limit: UInt64, into sink: DataSink) throws {
        let address = peer.address
        guard let header = try command.readHeader(firstByteTimeout: timeouts.read, waitingFor: "the data of transaction \(transactionID)") else {
            throw PTPError.connectionClosed(.hungUp(peer: address, moment: .beforeItsDataPhase))
        }
        try header.requireDataPhase(of: transactionID, peer: address)
        try sink.takePhase(of: header.payloadLength, limit: limit) { take in try command.readPayload(header.payloadLength, take) }
    }

    /// Sends a data phase as one container (Fuji has no other way), streamed in chunks.
    public func sendData(transactionID: UInt32, source: DataSource) throws {
        let code = state.withLock { state in
            state.lastCommand.flatMap { $0.transactionID == transactionID ? $0.code : nil } ?? 0
        }
        _ = try command.writeData(code: code, transactionID: transactionID, source: source)
    }

    /// Sends the response. An OK to InitiateOpenCapture opens the event and live-view ports to this host
    /// first (so the host, which connects as soon as it reads the OK, finds them open); an OK to
    /// TerminateOpenCapture ends the live view.
    public func sendResponse(_ response: PTPResponse) throws {
        let ended: Socket? = state.withLock { state in
            guard response.code == .ok, let last = state.lastCommand, last.transactionID == response.transactionID else { return nil }
            switch last.code {
            case OperationCode.initiateOpenCapture.rawValue:
                state.captureOpen = true
            case OperationCode.terminateOpenCapture.rawValue:
                state.captureOpen = false
                return state.liveView
            default:
                break
            }
            return nil
        }
        ended?.shutdown()
        try command.write(ContainerCodec.response(response))
    }

    // MARK: Events

    public func sendEvent(_ event: PTPEvent) throws {
        let stream: FujiStream? = try state.withLock { state in
            if state.closed { throw PTPError.connectionClosed(.closedHere(transport: nil, peer: peer.address, during: nil)) }
            if state.events == nil, !state.eventSocketEnded {
                if state.queued.count >= Self.maximumQueuedEvents { state.queued.removeFirst() }
                state.queued.append(event)
            }
            return state.events
        }
        guard let stream else { return }
        try eventWrites.withLock { _ in try stream.write(ContainerCodec.event(event)) }
    }

    /// Takes the host's event socket and sends the queued events; false when this connection cannot take
    /// one (closed, capture mode not open, or it has one).
    func attachEventSocket(_ stream: FujiStream) throws -> Bool {
        let queued: [PTPEvent]? = state.withLock { state in
            if state.closed || !state.captureOpen || state.events != nil || state.eventSocketEnded { return nil }
            state.events = stream
            defer { state.queued.removeAll() }
            return state.queued
        }
        guard let queued else { return false }
        try eventWrites.withLock { _ in
            for event in queued { try stream.write(ContainerCodec.event(event)) }
        }
        return true
    }

    /// Reads the attached event socket until it ends (the host sends nothing there), then releases it.
    func readEventSocket(_ stream: FujiStream) {
        while true {
            do {
                guard let header = try stream.readHeader(firstByteTimeout: nil, waitingFor: "nothing") else { break }
                if header.kind == .data {
                    try stream.readPayload(header.payloadLength) { _ in }
                } else {
                    _ = try stream.readParameters(header)
                }
            } catch {
                break
            }
        }
        state.withLock { state in
            state.events = nil
            state.eventSocketEnded = true
        }
        eventWrites.withLock { _ in stream.socket.close() }
    }

    // MARK: Live view

    /// Takes the host's live-view socket; false when this connection cannot take one (closed, or capture
    /// mode not open). A host has one live view: a socket it connected before is let go (shut down), as the
    /// host may connect again before this side has seen it close the last.
    func attachLiveViewSocket(_ socket: Socket) -> Bool {
        let (taken, earlier): (Bool, Socket?) = state.withLock { state in
            if state.closed || !state.captureOpen { return (false, nil) }
            defer { state.liveView = socket }
            return (true, state.liveView)
        }
        earlier?.shutdown()
        return taken
    }

    /// True while `socket` is this connection's live-view socket and capture mode is open.
    func isLiveViewing(_ socket: Socket) -> Bool {
        state.withLock { !$0.closed && $0.captureOpen && $0.liveView === socket }
    }

    /// Lets go of the live-view socket (the host may connect another).
    func detachLiveViewSocket(_ socket: Socket) {
        state.withLock { if $0.liveView === socket { $0.liveView = nil } }
    }

    // MARK: Closing

    /// Ends the connection: its sockets are shut down, which wakes whatever thread reads them.
    public func close() {
        let (events, liveView): (FujiStream?, Socket?) = state.withLock { state in
            state.closed = true
            state.queued.removeAll()
            return (state.events, state.liveView)
        }
        events?.socket.shutdown()
        liveView?.shutdown()
        command.socket.shutdown()
    }
}
