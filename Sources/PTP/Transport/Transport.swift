/// The initiator's (host's) side of a PTP connection: USB, PTP/IP, or in memory.
/// One transaction at a time; `PTPSession` serializes callers.
public protocol InitiatorTransport: AnyObject, Sendable {
    /// Runs the phases of one transaction: the command, a data phase in the direction given (at most
    /// one of `dataOut`, `dataIn`), then the response. A data phase the caller did not expect is drained.
    func transact(_ command: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> PTPResponse
    /// Where device events go, called on a transport-owned thread. nil stops delivery.
    func setEventHandler(_ handler: (@Sendable (PTPEvent) -> Void)?)
    /// Ends the connection; later calls fail with `PTPError.connectionClosed`.
    func close()
}

/// A command as the responder receives it.
public struct IncomingCommand: Equatable, Sendable {
    public var command: PTPCommand
    /// True when the initiator announced a data phase towards the responder (PTP/IP says so in the
    /// request; USB responders know it from the operation).
    public var hasDataOut: Bool

    public init(_ command: PTPCommand, hasDataOut: Bool) {
        self.command = command
        self.hasDataOut = hasDataOut
    }
}

/// The responder's (device's) side of a PTP connection, used by the virtual camera.
public protocol ResponderTransport: AnyObject, Sendable {
    /// The next command; nil when the initiator closed the connection cleanly.
    func receiveCommand() throws -> IncomingCommand?
    /// The data phase the initiator sends after a command with `hasDataOut`; more than `limit` bytes is an error.
    func receiveData(transactionID: UInt32, limit: Int) throws -> [UInt8]
    /// Streams that data phase into `sink` (SendObject's file, of any size). More than `limit` bytes, or an
    /// error thrown by the sink, still takes the whole phase, so the connection stays in step for the
    /// response; then `PTPError.dataTooLarge` or the sink's error is thrown.
    func receiveData(transactionID: UInt32, limit: UInt64, into sink: DataSink) throws
    /// Sends a data phase of `source.length` bytes, streamed in chunks.
    func sendData(transactionID: UInt32, source: DataSource) throws
    func sendResponse(_ response: PTPResponse) throws
    /// May be called from any thread, also while another thread is in a transaction.
    func sendEvent(_ event: PTPEvent) throws
    func close()
}

/// A responder transport that streams a data phase (the socket and in-memory ones): the phase collected
/// whole comes from the stream.
public protocol StreamingResponderTransport: ResponderTransport {}

extension StreamingResponderTransport {
    /// The phase collected whole (up to `limit` bytes) through `receiveData(transactionID:limit:into:)`.
    public func receiveData(transactionID: UInt32, limit: Int) throws -> [UInt8] {
        let sink = BufferSink(limit: limit)
        try receiveData(transactionID: transactionID, limit: UInt64(max(limit, 0)), into: sink)
        return sink.bytes
    }
}

extension ResponderTransport {
    /// For transports that only buffer: the phase is collected (up to `limit` bytes) and handed over whole.
    public func receiveData(transactionID: UInt32, limit: UInt64, into sink: DataSink) throws {
        let bytes = try receiveData(transactionID: transactionID, limit: Int(min(limit, UInt64(Int.max))))
        try sink.begin(expectedLength: UInt64(bytes.count))
        try bytes.withUnsafeBytes { try sink.write($0) }
    }
}
