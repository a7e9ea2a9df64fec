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
    /// Sends a data phase of `source.length` bytes, streamed in chunks.
    func sendData(transactionID: UInt32, source: DataSource) throws
    func sendResponse(_ response: PTPResponse) throws
    /// May be called from any thread, also while another thread is in a transaction.
    func sendEvent(_ event: PTPEvent) throws
    func close()
}
