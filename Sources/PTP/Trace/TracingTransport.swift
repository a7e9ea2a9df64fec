import Foundation

/// An initiator transport that records every container passing through `inner` in a `PTPTrace`:
/// wrapped around USB, PTP/IP and the in-process camera alike, so one trace format covers them all.
public final class TracingTransport: InitiatorTransport {
    public let inner: InitiatorTransport
    public let trace: PTPTrace

    public init(_ inner: InitiatorTransport, trace: PTPTrace) {
        self.inner = inner
        self.trace = trace
    }

    public func transact(_ command: PTPCommand, dataOut: DataSource?, dataIn: DataSink?) throws -> PTPResponse {
        let operation = command.code
        trace.record(
            .toDevice, "command",
            "\(trace.name(of: operation)) (0x\(hex4(operation.rawValue))) tid=\(command.transactionID) params=\(Self.parameters(command.parameters))"
                + (dataOut.map { " data out \($0.length) bytes" } ?? ""))
        let source = dataOut.map { TracingSource($0, keep: TraceDataPhase.keptBytes(operation)) }
        let sink = dataIn.map { TracingSink($0, keep: TraceDataPhase.keptBytes(operation)) }
        let response: PTPResponse
        do {
            response = try inner.transact(command, dataOut: source, dataIn: sink)
        } catch {
            recordData(operation, command.transactionID, source: source, sink: sink, cutShort: true)
            trace.record(.failure, "error", "\(trace.name(of: operation)) tid=\(command.transactionID): \(error)")
            throw error
        }
        recordData(operation, command.transactionID, source: source, sink: sink, cutShort: false)
        let code = response.code
        trace.record(
            .fromDevice, "response",
            "\(code.rawValue == 0x2001 ? "OK" : code.description) (0x\(hex4(code.rawValue))) tid=\(response.transactionID)"
                + " params=\(Self.parameters(response.parameters))")
        return response
    }

    public func setEventHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) {
        guard let handler else {
            inner.setEventHandler(nil)
            return
        }
        let trace = self.trace
        inner.setEventHandler { event in
            trace.record(
                .fromDevice, "event",
                "\(event.code) (0x\(hex4(event.code.rawValue))) tid=\(event.transactionID) params=\(Self.parameters(event.parameters))")
            handler(event)
        }
    }

    public func close() {
        trace.record(.toDevice, "close", "connection closed by mediashell")
        inner.close()
    }

    static func parameters(_ values: [UInt32]) -> String {
        "[" + values.map(TraceDataPhase.hex).joined(separator: ", ") + "]"
    }

    private func recordData(
        _ operation: OperationCode, _ transactionID: UInt32, source: TracingSource?, sink: TracingSink?, cutShort: Bool
    ) {
        let direction: PTPTrace.Direction
        let phase: TracedBytes
        var announced: UInt64?
        if let source {
            direction = .toDevice
            phase = source.phase
        } else if let sink, sink.announced != nil || sink.phase.count > 0 {
            direction = .fromDevice
            phase = sink.phase
            announced = sink.announced
        } else {
            return  // no data phase, or none came before the response
        }
        let redactor = trace.redactor
        let shown = min(phase.kept.count, TraceDataPhase.shownBytes(operation, redacted: redactor != nil))
        var text = "\(trace.name(of: operation)) tid=\(transactionID) length \(phase.count)"
        if let announced, announced != phase.count {
            text += " (announced \(announced))"
        }
        if cutShort { text += " (cut short)" }
        if shown > 0 {
            text += " bytes " + phase.kept.prefix(shown).map { Self.byte($0) }.joined(separator: " ")
            if phase.count > UInt64(shown) { text += " …" }
        } else if phase.count > 0 {
            text += " bytes withheld (may hold names)"
        }
        let complete = !cutShort && phase.count == UInt64(phase.kept.count)
        if operation == .getDeviceInfo, complete, let info = try? DeviceInfo(decoding: phase.kept) {
            let dialect = VendorDialect(info)
            if dialect != trace.dialect {
                trace.dialect = dialect
                trace.note("vendor dialect: \(dialect.rawValue) (its operations are named as it names them)")
            }
        }
        trace.record(
            direction, "data", text,
            details: TraceDataPhase.details(operation, phase.kept, complete: complete, redactor: redactor))
    }

    static func byte(_ value: UInt8) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}

/// The bytes of one data phase: how many passed, and the first `limit` of them.
struct TracedBytes {
    let limit: Int
    private(set) var count: UInt64 = 0
    private(set) var kept: [UInt8] = []

    mutating func add(_ chunk: UnsafeRawBufferPointer) {
        if kept.count < limit { kept.append(contentsOf: chunk.prefix(limit - kept.count)) }
        count += UInt64(chunk.count)
    }
}

/// Passes a data phase from the device on to the caller's sink, noting what went by.
final class TracingSink: DataSink {
    let inner: DataSink
    private(set) var phase: TracedBytes
    private(set) var announced: UInt64?

    init(_ inner: DataSink, keep: Int) {
        self.inner = inner
        phase = TracedBytes(limit: keep)
    }

    func begin(expectedLength: UInt64?) throws {
        announced = expectedLength
        try inner.begin(expectedLength: expectedLength)
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        phase.add(chunk)
        try inner.write(chunk)
    }
}

/// Passes the caller's outgoing data phase on to the transport, noting what went by.
final class TracingSource: DataSource {
    let inner: DataSource
    private(set) var phase: TracedBytes

    init(_ inner: DataSource, keep: Int) {
        self.inner = inner
        phase = TracedBytes(limit: keep)
    }

    var length: UInt64 { inner.length }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try inner.read(into: buffer)
        phase.add(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        return count
    }
}
