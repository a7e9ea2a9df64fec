import POSIX
import Foundation

/// A connected initiator/responder pair in one process, for tests and for the built-in `sim:` camera.
/// Data phases are split into chunks of `chunkSize` so streaming code paths run as they do over a wire.
public enum InMemoryTransport {
    public static func makePair(chunkSize: Int = 256 << 10, timeout: TimeInterval = 30)
        -> (initiator: InMemoryInitiator, responder: InMemoryResponder)
    {
        let toResponder = MessageQueue(timeout: timeout)
        let toInitiator = MessageQueue(timeout: timeout)
        let events = DispatchQueue(label: "mediashell.inmemory.events")
        let handler = EventHandlerBox()
        let initiator = InMemoryInitiator(
            outgoing: toResponder, incoming: toInitiator, handler: handler, chunkSize: chunkSize)
        let responder = InMemoryResponder(
            outgoing: toInitiator, incoming: toResponder, events: events, handler: handler, chunkSize: chunkSize)
        return (initiator, responder)
    }
}

enum InMemoryMessage: Sendable {
    case command(IncomingCommand)
    case dataStart(transactionID: UInt32, length: UInt64)
    case data([UInt8])
    case dataEnd
    case response(PTPResponse)
}

/// A blocking FIFO with close and a receive timeout.
final class MessageQueue: Sendable {
    private struct State {
        var items: [InMemoryMessage] = []
        var head = 0
        var closed = false
    }

    private let state = LockedCondition(State())
    let timeout: TimeInterval

    init(timeout: TimeInterval) { self.timeout = timeout }

    func put(_ message: InMemoryMessage) throws {
        let accepted = state.change { state -> Bool in
            guard !state.closed else { return false }
            state.items.append(message)
            return true
        }
        if !accepted { throw PTPError.connectionClosed(.hungUp(peer: "in-memory peer", moment: nil)) }
    }

    /// The next message, nil when closed and drained.
    func take() throws -> InMemoryMessage? {
        let next: InMemoryMessage?? = state.wait(
            until: .after(timeout), for: { $0.head < $0.items.count || $0.closed },
            then: { state -> InMemoryMessage? in
                guard state.head < state.items.count else { return nil }
                let message = state.items[state.head]
                state.head += 1
                if state.head > 64, state.head * 2 > state.items.count {
                    state.items.removeFirst(state.head)
                    state.head = 0
                }
                return message
            })
        guard let next else { throw PTPError.timeout(.init(peer: "in-memory peer", seconds: nil, awaited: .message)) }
        return next
    }

    func close() {
        state.change { $0.closed = true }
    }
}

final class EventHandlerBox: Sendable {
    private let handler = Locked<(@Sendable (PTPEvent) -> Void)?>(nil)
    func set(_ h: (@Sendable (PTPEvent) -> Void)?) { handler.withLock { $0 = h } }
    func get() -> (@Sendable (PTPEvent) -> Void)? { handler.withLock { $0 } }
}

private func send(_ source: DataSource, transactionID: UInt32, chunkSize: Int, to queue: MessageQueue) throws {
    try queue.put(.dataStart(transactionID: transactionID, length: source.length))
    var remaining = source.length
    var buffer = [UInt8](repeating: 0, count: chunkSize)
    while remaining > 0 {
        let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        if count == 0 { break }
        try queue.put(.data(Array(buffer[0..<count])))
        remaining -= UInt64(min(UInt64(count), remaining))
    }
    try queue.put(.dataEnd)
}

public final class InMemoryInitiator: InitiatorTransport, Sendable {
    let outgoing: MessageQueue
    let incoming: MessageQueue
    let handler: EventHandlerBox
    let chunkSize: Int

    init(outgoing: MessageQueue, incoming: MessageQueue, handler: EventHandlerBox, chunkSize: Int) {
        self.outgoing = outgoing
        self.incoming = incoming
        self.handler = handler
        self.chunkSize = chunkSize
    }

    public func transact(_ command: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> PTPResponse {
        try outgoing.put(.command(IncomingCommand(command, hasDataOut: dataOut != nil)))
        if let dataOut { try send(dataOut, transactionID: command.transactionID, chunkSize: chunkSize, to: outgoing) }
        var sinkError: Error?
        while true {
            guard let message = try incoming.take() else { throw PTPError.connectionClosed(.hungUp(peer: "in-memory responder", moment: nil)) }
            switch message {
            case .dataStart(_, let length):
                if sinkError == nil {
                    do { try dataIn?.begin(expectedLength: length) } catch { sinkError = error }
                }
            case .data(let bytes):
                if sinkError == nil {
                    do { try bytes.withUnsafeBytes { try dataIn?.write($0) } } catch { sinkError = error }
                }
            case .dataEnd:
                break
            case .response(let response):
                guard response.transactionID == command.transactionID else {
                    throw PTPError.protocolViolation(ProtocolViolation(
                        .wrongTransaction(packet: "a response", found: response.transactionID, expected: command.transactionID),
                        operation: command.code, peer: "in-memory responder"))
                }
                if let sinkError { throw sinkError }
                return response
            case .command:
                throw PTPError.protocolViolation(ProtocolViolation(
                    .unexpected(sent: "a command", expected: .transactionContinuation), operation: command.code,
                    peer: "in-memory responder"))
            }
        }
    }

    public func setEventHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) { self.handler.set(handler) }

    public func close() {
        outgoing.close()
        incoming.close()
    }
}

public final class InMemoryResponder: StreamingResponderTransport, Sendable {
    let outgoing: MessageQueue
    let incoming: MessageQueue
    let events: DispatchQueue
    let handler: EventHandlerBox
    let chunkSize: Int

    init(outgoing: MessageQueue, incoming: MessageQueue, events: DispatchQueue, handler: EventHandlerBox, chunkSize: Int) {
        self.outgoing = outgoing
        self.incoming = incoming
        self.events = events
        self.handler = handler
        self.chunkSize = chunkSize
    }

    public func receiveCommand() throws -> IncomingCommand? {
        while true {
            // The initiator's receive timeout covers a slow responder; an idle initiator is normal.
            do {
                guard let message = try incoming.take() else { return nil }
                if case .command(let command) = message { return command }
                throw PTPError.protocolViolation(
                    ProtocolViolation(.unexpected(sent: "a data or response message", expected: .command), peer: "in-memory initiator"))
            } catch PTPError.timeout {
                continue
            }
        }
    }

    public func receiveData(transactionID: UInt32, limit: UInt64, into sink: DataSink) throws {
        var received: UInt64 = 0
        var started = false
        var failure: Error?
        while true {
            guard let message = try incoming.take() else { throw PTPError.connectionClosed(.hungUp(peer: "in-memory initiator", moment: nil)) }
            switch message {
            case .dataStart(_, let length):
                guard !started else { throw PTPError.protocolViolation(ProtocolViolation(.repeated(packet: "data start"), peer: "in-memory initiator")) }
                started = true
                if length > limit {
                    failure = PTPError.dataTooLarge(limit: limit, announced: length)
                } else {
                    do { try sink.begin(expectedLength: length) } catch { failure = error }
                }
            case .data(let chunk):
                guard started else { throw PTPError.protocolViolation(ProtocolViolation(.dataBeforeItsStart, peer: "in-memory initiator")) }
                received += UInt64(chunk.count)
                guard failure == nil else { continue }
                if received > limit {
                    failure = PTPError.dataTooLarge(limit: limit, announced: received)
                    continue
                }
                do { try chunk.withUnsafeBytes { try sink.write($0) } } catch { failure = error }
            case .dataEnd:
                // The whole phase is taken even when refused, so the next message is the next command.
                if let failure { throw failure }
                return
            default:
                throw PTPError.protocolViolation(
                    ProtocolViolation(.unexpected(sent: "a command or response", expected: .dataPhase), peer: "in-memory initiator"))
            }
        }
    }

    public func sendData(transactionID: UInt32, source: DataSource) throws {
        try send(source, transactionID: transactionID, chunkSize: chunkSize, to: outgoing)
    }

    public func sendResponse(_ response: PTPResponse) throws {
        try outgoing.put(.response(response))
    }

    public func sendEvent(_ event: PTPEvent) throws {
        let handler = self.handler
        events.async { handler.get()?(event) }
    }

    public func close() {
        outgoing.close()
        incoming.close()
    }
}
