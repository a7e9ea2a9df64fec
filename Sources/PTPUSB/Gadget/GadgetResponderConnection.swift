#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import POSIX
import PTP

/// The camera side of one USB connection of a `USBGadget`: containers of the still image class read from the
/// bulk-out endpoint and written to bulk-in, events on the interrupt endpoint.
///
/// - The host does not announce a data phase: the operations that carry one are known
///   (`OperationCode.sendingDataToResponder`), and a data container that comes for another is read and dropped.
/// - A phase sent to the host is written in pieces whose lengths are whole packets, so that only its end is a
///   short packet; one whose length is a whole number of packets is ended by a zero-length packet.
/// - Events go out on a thread of their own (the host reads the interrupt endpoint when it likes): up to 64
///   wait, the oldest dropped.
/// - When the host leaves (a pulled cable, a new configuration), the endpoints' transfers fail and so does
///   the connection: its next call throws `PTPError.connectionClosed`.
public final class GadgetResponderConnection: StreamingResponderTransport, Sendable {
    public static let maximumQueuedEvents = 64
    /// Bytes asked of the bulk-out endpoint at a time, and written to bulk-in at a time: whole packets.
    static let chunk = 256 * 1024
    /// The bulk endpoints' packet at high speed, the speed the gadget offers first.
    static let packet = 512

    private let bulkIn: Int32
    private let bulkOut: Int32
    private let interrupt: Int32
    private let serial: String
    private let state = LockedCondition(State())
    private let received = Locked(Received())

    private struct State {
        var closed = false
        var busy = false
        var events: [PTPEvent] = []
        var eventWriter: JoinableThread?
        var lastCommand: (transactionID: UInt32, code: UInt16)?
    }

    /// Bytes read from bulk-out and not yet taken.
    private struct Received {
        var bytes: [UInt8] = []
        var start = 0
    }

    init(bulkIn: Int32, bulkOut: Int32, interrupt: Int32, serial: String) {
        self.bulkIn = bulkIn
        self.bulkOut = bulkOut
        self.interrupt = interrupt
        self.serial = serial
        let thread = try? JoinableThread(name: "gadget-events") { [self] in writeEvents() }
        state.withLock { $0.eventWriter = thread }
    }

    /// True while a data phase is under way (Get Device Status answers busy then).
    var isBusy: Bool { state.withLock { $0.busy } }

    // MARK: Commands and data

    public func receiveCommand() throws -> IncomingCommand? {
        while true {
            let header = try readHeader()
            switch header.kind {
            case .command:
                let parameters = ContainerCodec.parameters(try take(Int(header.payloadLength))[...])
                state.withLock { $0.lastCommand = (header.transactionID, header.code) }
                let request = PTPCommand(OperationCode(rawValue: header.code), transactionID: header.transactionID, parameters: parameters)
                return IncomingCommand(request, hasDataOut: OperationCode.sendingDataToResponder.contains(header.code))
            case .data where header.transactionID == state.withLock({ $0.lastCommand?.transactionID }):
                // Data for an operation answered without taking it: drop it.
                try takePayload(header.payloadLength) { _ in }
            default:
                throw PTPError.protocolViolation(
                    ProtocolViolation(.unexpected(sent: "a \(header.kind) container", expected: .command), peer: "USB host"))
            }
        }
    }

    public func receiveData(transactionID: UInt32, limit: UInt64, into sink: DataSink) throws {
        let header = try readHeader()
        try header.requireDataPhase(of: transactionID, peer: "the USB host")
        state.withLock { $0.busy = true }
        defer { state.withLock { $0.busy = false } }
        try sink.takePhase(of: header.payloadLength, limit: limit) { take in try takePayload(header.payloadLength, take) }
    }

    public func sendData(transactionID: UInt32, source: DataSource) throws {
        let code = state.withLock { state in
            state.lastCommand.flatMap { $0.transactionID == transactionID ? $0.code : nil } ?? 0
        }
        state.withLock { $0.busy = true }
        defer { state.withLock { $0.busy = false } }
        let header = USBContainer.dataHeader(code: code, transactionID: transactionID, payload: source.length)
        var buffer = [UInt8](repeating: 0, count: Self.chunk)
        var filled = header.count
        buffer.replaceSubrange(0..<header.count, with: header)
        var left = source.length
        var sent: UInt64 = 0
        while true {
            while filled < Self.chunk && left > 0 {
                let count = try buffer.withUnsafeMutableBytes { raw in
                    try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled..<min(Self.chunk, filled + Int(min(left, UInt64(Int.max))))]))
                }
                guard count > 0 else { throw PTPError.protocolViolation(ProtocolViolation(.unexpected(sent: "fewer bytes than announced", expected: .dataPhase), peer: "the file served")) }
                filled += count
                left -= UInt64(count)
            }
            // Every piece but the last is whole packets (the chunk is), so the host sees one transfer.
            try write(bulkIn, buffer[0..<filled])
            sent += UInt64(filled)
            if left == 0 { break }
            filled = 0
        }
        if sent % UInt64(Self.packet) == 0 { try write(bulkIn, []) }
    }

    public func sendResponse(_ response: PTPResponse) throws {
        try write(bulkIn, ContainerCodec.response(response)[...])
    }

    // MARK: Events

    public func sendEvent(_ event: PTPEvent) throws {
        try state.change { state in
            if state.closed { throw closedError() }
            if state.events.count >= Self.maximumQueuedEvents { state.events.removeFirst() }
            state.events.append(event)
        }
    }

    private func writeEvents() {
        while let event = state.wait(until: nil, for: { $0.closed || !$0.events.isEmpty }, then: { state -> PTPEvent? in
            state.closed ? nil : state.events.removeFirst()
        }) ?? nil {
            guard (try? write(interrupt, ContainerCodec.event(event)[...])) != nil else { return }
        }
    }

    // MARK: The host leaving

    /// The host let go of the function (FunctionFS's disable or unbind): what waits on an endpoint fails.
    func hostLeft() { close() }

    /// The host sent the class's Cancel request: the data phase under way ends with the endpoint's failure.
    func cancelled() {}

    public func close() {
        let writer = state.change { state -> JoinableThread? in
            state.closed = true
            defer { state.eventWriter = nil }
            return state.eventWriter
        }
        _ = writer
    }

    // MARK: Endpoint I/O

    private var isClosed: Bool { state.withLock { $0.closed } }

    /// The host left (or this side closed): what every later call throws.
    private func closedError() -> PTPError {
        .connectionClosed(.hungUp(peer: "the USB host of \(serial)", moment: nil))
    }

    private func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) throws {
        guard !isClosed else { throw closedError() }
        let written = bytes.withUnsafeBytes { raw in Glibc.write(fd, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, raw.count) }
        guard written == bytes.count else {
            close()
            throw closedError()
        }
    }

    /// Reads once from bulk-out into the received bytes (a transfer, or as much of one as fits).
    private func fill() throws {
        guard !isClosed else { throw closedError() }
        var buffer = [UInt8](repeating: 0, count: Self.chunk)
        var count: Int
        repeat {
            count = buffer.withUnsafeMutableBytes { Glibc.read(bulkOut, $0.baseAddress, $0.count) }
        } while count < 0 && errno == EINTR
        guard count >= 0 else {
            close()
            throw closedError()
        }
        received.withLock { received in
            if received.start > 0 {
                received.bytes.removeFirst(received.start)
                received.start = 0
            }
            received.bytes += buffer[0..<count]
        }
    }

    private func available() -> Int { received.withLock { $0.bytes.count - $0.start } }

    /// The next `count` bytes from bulk-out.
    private func take(_ count: Int) throws -> [UInt8] {
        while available() < count { try fill() }
        return received.withLock { received in
            defer { received.start += count }
            return Array(received.bytes[received.start..<received.start + count])
        }
    }

    private func readHeader() throws -> ContainerHeader {
        let bytes = try take(ContainerHeader.size)
        return try bytes.withUnsafeBytes { try ContainerHeader(decoding: $0, on: "USB") }
    }

    /// Hands the next `total` bytes to `body` as they come.
    private func takePayload(_ total: UInt64, _ body: (UnsafeRawBufferPointer) -> Void) throws {
        var left = total
        while left > 0 {
            if available() == 0 { try fill() }
            let piece = received.withLock { received -> [UInt8] in
                let count = Int(min(UInt64(received.bytes.count - received.start), left))
                defer { received.start += count }
                return Array(received.bytes[received.start..<received.start + count])
            }
            piece.withUnsafeBytes(body)
            left -= UInt64(piece.count)
        }
    }
}
