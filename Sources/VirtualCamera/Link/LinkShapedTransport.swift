import POSIX
import PTP

/// A responder transport that makes another one behave like a slower link (see `LinkModel`): a response,
/// or the first byte of a data phase towards the initiator, leaves no earlier than one round trip after its
/// request arrived; data phases in either direction take their bytes' time at the link's bandwidth.
///
/// Times are planned from the moment each request arrived, not from when the previous sleep ended, so the
/// added cost of a transaction is the model's and nothing more, whatever the machine's load adds on top.
/// Events pass through at once. Used on the thread that serves the connection (one transaction at a time).
public final class LinkShapedTransport: ResponderTransport, Sendable {
    private let inner: ResponderTransport
    public let link: LinkModel
    private let clock: LinkClock
    /// The earliest moment the next thing towards the initiator may leave (the serving thread's, one
    /// transaction at a time; in a Locked so that the type says so).
    private let due = Locked(0.0)

    public init(_ inner: ResponderTransport, link: LinkModel, clock: LinkClock = MonotonicLinkClock()) {
        self.inner = inner
        self.link = link
        self.clock = clock
    }

    public func receiveCommand() throws -> IncomingCommand? {
        let command = try inner.receiveCommand()
        let arrived = clock.now()
        due.withLock { $0 = arrived + link.roundTrip }
        return command
    }

    public func receiveData(transactionID: UInt32, limit: Int) throws -> [UInt8] {
        let bytes = try inner.receiveData(transactionID: transactionID, limit: limit)
        // The initiator's data crossed the link before our answer can start back.
        due.withLock { $0 += link.transmission(of: UInt64(bytes.count)) }
        return bytes
    }

    public func sendData(transactionID: UInt32, source: DataSource) throws {
        let start = due.withLock { $0 }
        clock.sleep(until: start)
        let paced = PacedDataSource(source, link: link, clock: clock, start: max(start, clock.now()))
        defer {
            let finish = paced.finish
            due.withLock { $0 = finish }
        }
        try inner.sendData(transactionID: transactionID, source: paced)
    }

    public func sendResponse(_ response: PTPResponse) throws {
        clock.sleep(until: due.withLock { $0 })
        try inner.sendResponse(response)
    }

    public func sendEvent(_ event: PTPEvent) throws { try inner.sendEvent(event) }

    public func close() { inner.close() }
}

/// Hands out a data phase no faster than the link's bandwidth: a chunk is returned once the link could
/// have carried every byte up to its end, counted from `start`.
final class PacedDataSource: DataSource {
    private let source: DataSource
    private let link: LinkModel
    private let clock: LinkClock
    private let start: Double
    private var handedOut: UInt64 = 0

    init(_ source: DataSource, link: LinkModel, clock: LinkClock, start: Double) {
        self.source = source
        self.link = link
        self.clock = clock
        self.start = start
    }

    var length: UInt64 { source.length }

    /// When the last byte handed out has crossed the link.
    var finish: Double { start + link.transmission(of: handedOut) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try source.read(into: buffer)
        handedOut += UInt64(count)
        clock.sleep(until: finish)
        return count
    }
}
