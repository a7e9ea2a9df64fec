import Foundation
import POSIX
import PTP

/// The host side of Fujifilm's Wi-Fi protocol: one command socket (port 55740) that opens with Fuji's
/// init exchange and then carries USB-style containers; an event socket (55741) connected only once
/// InitiateOpenCapture succeeded, read by a thread of its own. Data phases are streamed between the
/// socket and the sink or source in chunks of at most 1 MiB, so memory stays flat whatever the size.
/// One transaction at a time (`PTPSession` serializes its callers; overlapping calls are refused).
public final class FujiInitiator: InitiatorTransport, Sendable {
    /// How long, after a command with a data phase to the camera, an immediate refusal is waited for
    /// before the data goes out (see `run`): on loopback vcam answers within a millisecond.
    static let earlyAnswerWait: TimeInterval = 0.02

    /// A GUID of this process only, sent when the caller gives none (tests, tools). mediashell sends the
    /// computer's own (Connectors' `WiFiIdentity`): cameras pair with it, so it is never a shared constant.
    public static let processGUID: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }()

    /// What the camera said about itself in its answer.
    public let deviceName: String
    public let deviceGUID: [UInt8]
    public let timeouts: FujiTimeouts
    /// Where the event socket is connected once capture mode opens it; nil: never.
    public let eventPort: UInt16?
    private let host: String
    private let command: FujiStream
    private let observe: (@Sendable (FujiHandshakeStep) -> Void)?
    private let steps: FujiHandshakeTrace
    private let state = Locked(State())
    private let handler = Locked<(@Sendable (PTPEvent) -> Void)?>(nil)

    private struct State {
        var closed = false
        var inTransaction = false
        /// Set when a transaction failed in a way that leaves the stream out of step.
        var brokenBecause: EarlierFailure?
        var events: FujiStream?
        var eventThread: JoinableThread?
        var eventAttempted = false
    }

    private init(
        host: String, command: FujiStream, deviceName: String, deviceGUID: [UInt8], eventPort: UInt16?,
        timeouts: FujiTimeouts, observe: (@Sendable (FujiHandshakeStep) -> Void)?, steps: FujiHandshakeTrace
    ) {
        self.steps = steps
        self.host = host
        self.command = command
        self.deviceName = deviceName
        self.deviceGUID = deviceGUID
        self.eventPort = eventPort
        self.timeouts = timeouts
        self.observe = observe
    }

    /// Connects to a Fujifilm camera: the command socket, our 82-byte init request, the camera's 0x44-byte
    /// answer (or Init_Fail: `FujiWiFiError.refused`). No event socket yet: the camera opens its event port
    /// only after InitiateOpenCapture, and this transport connects it then. With a `trace`, each TCP
    /// connection and both init packets are recorded; an answer that never comes is `PTPError.unanswered`
    /// naming the packet awaited and the one sent.
    /// - Parameters:
    ///   - eventPort: the event socket's port (55741 on a camera); nil: never connect one.
    ///   - name: the name the camera shows for this host (26 characters are kept).
    ///   - observe: told each step of the handshake.
    public static func connect(
        host: String, port: UInt16 = FujiPorts.command, eventPort: UInt16? = FujiPorts.event, name: String,
        guid: [UInt8] = processGUID, timeouts: FujiTimeouts = FujiTimeouts(), trace: PTPTrace? = nil,
        observe: (@Sendable (FujiHandshakeStep) -> Void)? = nil
    ) throws -> FujiInitiator {
        let steps = FujiHandshakeTrace(trace: trace)
        let peer = "\(host):\(port)"
        steps.connecting(peer, socket: "command")
        let socket: Socket
        do {
            socket = try Socket.connect(host: host, port: port, timeout: timeouts.connect)
        } catch {
            let failure = PTPError(error)
            steps.failed(failure)
            throw failure
        }
        let stream = FujiStream(socket: socket, timeout: timeouts.read)
        observe?(.connected(peer: socket.peer))
        do {
            let request = FujiHandshake.request(guid: guid, name: name)
            try stream.write(request)
            steps.sent(request: request, to: peer)
            observe?(.sentRequest(request))
            let answer: [UInt8]?
            do {
                answer = try stream.readHandshakePacket(firstByteTimeout: timeouts.read, what: "Fuji's init answer")
            } catch let error as PTPError where error.isTimeout {
                throw PTPError.unanswered(UnansweredStep(
                    awaited: "Fuji init answer (0x44 bytes)", sent: "Fuji init request (82 bytes)", peer: peer,
                    seconds: timeouts.read))
            }
            guard let answer else {
                throw PTPError.connectionClosed(.hungUpInsteadOfAnswering(peer: socket.peer, request: "Fuji's init request"))
            }
            steps.received(answer: answer, from: peer)
            observe?(.receivedAnswer(answer))
            switch try FujiHandshake.decodeAnswer(answer) {
            case .refused(let reason):
                throw FujiWiFiError.refused(peer: socket.peer, reason: reason)
            case .accepted(let deviceGUID, let deviceName):
                return FujiInitiator(
                    host: host, command: stream, deviceName: deviceName, deviceGUID: deviceGUID, eventPort: eventPort,
                    timeouts: timeouts, observe: observe, steps: steps)
            }
        } catch {
            steps.failed(error)
            socket.close()
            throw error
        }
    }

    // MARK: Events

    public func setEventHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) {
        self.handler.withLock { $0 = handler }
    }

    /// True once the event socket is connected (after InitiateOpenCapture).
    public var hasEventSocket: Bool { state.withLock { $0.events != nil } }

    /// Connects the event socket, once: the camera listens on it only after InitiateOpenCapture, and may
    /// take a moment to (libgphoto2 tries three times, 100 ms apart, when refused). A camera whose mode has
    /// no event port is not an error: events are then polled (device property 0xD212).
    private func connectEventSocket() {
        let port: UInt16? = state.withLock { state in
            if state.closed || state.eventAttempted { return nil }
            state.eventAttempted = true
            return eventPort
        }
        guard let port else { return }
        steps.connecting("\(host):\(port)", socket: "event, opened by InitiateOpenCapture")
        var attempts = 0
        var socket: Socket?
        var failure = ""
        while socket == nil, attempts < 3 {
            attempts += 1
            do {
                socket = try Socket.connect(host: host, port: port, timeout: timeouts.connect)
            } catch {
                failure = error.description
                guard error.isNobodyListening, attempts < 3 else { break }
                POSIX.sleep(until: .after(0.1))
            }
        }
        guard let socket else {
            steps.eventSocket("no event socket on \(host):\(port) after \(attempts) tries (\(failure)): events are polled")
            observe?(.eventSocketUnavailable(port: port, reason: failure))
            return
        }
        let stream = FujiStream(socket: socket, timeout: timeouts.read)
        let thread: JoinableThread?
        do {
            thread = try JoinableThread(name: "fuji-events") { [handler] in Self.readEvents(stream, handler: handler) }
        } catch {
            socket.close()
            observe?(.eventSocketUnavailable(port: port, reason: error.description))
            return
        }
        let kept = state.withLock { state -> Bool in
            if state.closed { return false }
            state.events = stream
            state.eventThread = thread
            return true
        }
        if !kept {
            socket.shutdown()
            thread?.join()
            socket.close()
            return
        }
        steps.eventSocket("event socket \(host):\(port) connected (\(attempts) \(attempts == 1 ? "try" : "tries"))")
        observe?(.eventSocketConnected(port: port, attempts: attempts))
    }

    /// The event thread's loop: event containers go to the handler; a data container's payload is
    /// skipped; anything malformed, or the end of the stream, ends it.
    private static func readEvents(_ stream: FujiStream, handler: Locked<(@Sendable (PTPEvent) -> Void)?>) {
        while true {
            do {
                guard let header = try stream.readHeader(firstByteTimeout: nil, waitingFor: "an event") else { return }
                switch header.kind {
                case .data:
                    try stream.readPayload(header.payloadLength) { _ in }
                case .event, .response, .command:
                    let parameters = try stream.readParameters(header)
                    guard header.kind == .event else { continue }
                    let event = PTPEvent(EventCode(rawValue: header.code), transactionID: header.transactionID, parameters: parameters)
                    handler.withLock { $0 }?(event)
                }
            } catch {
                return
            }
        }
    }

    // MARK: Transactions

    public func transact(_ request: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> PTPResponse {
        try state.withLock { state in
            if state.closed { throw PTPError.connectionClosed(.closedHere(transport: "Fuji", peer: command.peer, during: nil)) }
            if let broken = state.brokenBecause {
                throw PTPError.connectionClosed(.unusable(transport: "Fuji", peer: command.peer, after: "\(broken)"))
            }
            if state.inTransaction { throw PTPError.misuse(.concurrentTransactions(connection: "Fuji", peer: command.peer)) }
            state.inTransaction = true
        }
        defer { state.withLock { $0.inTransaction = false } }
        let outcome = try EarlierFailure.noting(request.code, keep: { failure in
            state.withLock { if $0.brokenBecause == nil { $0.brokenBecause = failure } }
        }) {
            try run(request, dataOut: dataOut, dataIn: dataIn)
        }
        if request.code == .initiateOpenCapture, outcome.response.code == .ok { connectEventSocket() }
        if let deferred = outcome.deferred { throw deferred }
        return outcome.response
    }

    /// One transaction. Errors thrown from here leave the stream out of step; an error of the sink comes
    /// back as `deferred` once the response is in and the stream is in step.
    private func run(_ request: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> (response: PTPResponse, deferred: Error?) {
        let id = request.transactionID
        let operation = request.code
        let peer = command.peer
        try command.write(ContainerCodec.command(request))
        // Nothing in the command says a data container follows; a responder that refuses the operation
        // answers at once (vcam refuses an unknown property before its data, and would then read the data
        // as the next command): a response already there is taken instead of sending the data.
        var refusedEarly = false
        if let dataOut {
            if try command.hasInput(timeout: Self.earlyAnswerWait) {
                refusedEarly = true
            } else {
                _ = try command.writeData(code: operation.rawValue, transactionID: id, source: dataOut)
            }
        }
        var sawData = false
        var sinkError: Error?
        func violation(_ breach: ProtocolViolation.Breach) -> PTPError {
            .protocolViolation(ProtocolViolation(breach, operation: operation, peer: peer))
        }
        while true {
            guard let header = try command.readHeader(firstByteTimeout: timeouts.read, waitingFor: "the answer to \(operation)") else {
                throw PTPError.connectionClosed(.hungUp(peer: peer, moment: .during("\(operation)")))
            }
            switch header.kind {
            case .data:
                guard header.transactionID == id else {
                    throw violation(.wrongTransaction(packet: "data", found: header.transactionID, expected: id))
                }
                guard !sawData else { throw violation(.repeated(packet: "data container")) }
                guard dataOut == nil else { throw violation(.dataBothWays) }
                sawData = true
                if let dataIn {
                    do { try dataIn.begin(expectedLength: header.payloadLength) } catch { sinkError = error }
                }
                try command.readPayload(header.payloadLength) { chunk in
                    guard sinkError == nil, let dataIn else { return }
                    do { try dataIn.write(chunk) } catch { sinkError = error }
                }
            case .response:
                let parameters = try command.readParameters(header)
                guard header.transactionID == id else {
                    throw violation(.wrongTransaction(packet: "a response", found: header.transactionID, expected: id))
                }
                let response = PTPResponse(ResponseCode(rawValue: header.code), transactionID: id, parameters: parameters)
                if refusedEarly, response.code == .ok {
                    throw violation(.answeredBeforeOurData)
                }
                return (response, sinkError)
            case .event:
                // Some bodies put an event on the command socket: delivered as if it came on its own.
                let parameters = try command.readParameters(header)
                let event = PTPEvent(EventCode(rawValue: header.code), transactionID: header.transactionID, parameters: parameters)
                handler.withLock { $0 }?(event)
            case .command:
                throw violation(.unexpected(sent: "a command container", expected: .transactionContinuation))
            }
        }
    }

    // MARK: Closing

    /// Shuts both sockets down, waits for the event thread and releases the descriptors.
    public func close() {
        let (first, events, thread): (Bool, FujiStream?, JoinableThread?) = state.withLock { state in
            if state.closed { return (false, nil, nil) }
            state.closed = true
            return (true, state.events, state.eventThread)
        }
        guard first else { return }
        handler.withLock { $0 = nil }
        command.socket.shutdown()
        events?.socket.shutdown()
        if let thread, !thread.isCurrent { thread.join() }
        events?.socket.close()
        command.socket.close()
    }

    deinit { close() }
}
