// libFuzzer target: what a USB camera sends on its bulk-in pipe, through the whole USB transport: the
// container headers, data phases of any announced length, responses, and the recovery a device that
// answers nonsense or nothing sets off. The input is the device's transfers, each a u16 length (little
// endian) and its bytes; a transfer shorter than the host's buffer ends at a short packet, as on a bus.
// Built and run by scripts/fuzz; not part of `swift build`.
import Foundation
import PTP

@testable import PTPUSB

/// A bulk-in pipe that plays back transfers from the input at once, and answers the rest of the
/// interface as a quiet device would: bulk-out taken, no events, class requests answered OK.
final class ScriptedPipe: USBPipe, @unchecked Sendable {
    // Safety: used by one thread (the transport's caller); no event reader (no interrupt endpoint).
    private var transfers: [[UInt8]]
    private var queued: [Queued] = []

    final class Queued: USBQueuedTransfer, @unchecked Sendable {
        let buffer: UnsafeMutableRawBufferPointer
        var result: Result<Int, LibUSBError>?
        init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }
    }

    init(_ input: [UInt8]) {
        var transfers: [[UInt8]] = []
        var i = 0
        while i + 2 <= input.count, transfers.count < 256 {
            let length = Int(input[i]) | Int(input[i + 1]) << 8
            i += 2
            let end = min(input.count, i + length)
            transfers.append(Array(input[i..<end]))
            i = end
        }
        self.transfers = transfers
    }

    var bulkInPacketSize: Int { 512 }
    var bulkOutPacketSize: Int { 512 }
    var hasInterruptIn: Bool { false }

    func bulkOut(_ bytes: UnsafeRawBufferPointer, timeout: TimeInterval) throws {}

    /// The next transfer into `buffer`: as much of it as fits (the rest stays for the next), or timeout.
    private func next(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, LibUSBError> {
        guard !transfers.isEmpty else { return .failure(.timeout) }
        let count = min(buffer.count, transfers[0].count)
        transfers[0].withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: count) }
        if count < transfers[0].count {
            transfers[0].removeFirst(count)
        } else {
            transfers.removeFirst()
        }
        return .success(count)
    }

    func bulkIn(into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval) throws -> Int {
        try next(into: buffer).get()
    }

    func submitBulkIn(into buffer: UnsafeMutableRawBufferPointer) throws -> USBQueuedTransfer {
        let transfer = Queued(buffer)
        queued.append(transfer)
        return transfer
    }

    func cancelBulkIn(_ transfer: USBQueuedTransfer) {
        guard let transfer = transfer as? Queued, transfer.result == nil else { return }
        transfer.result = .failure(.io)
    }

    func reapBulkIn(_ transfer: USBQueuedTransfer, timeout: TimeInterval) throws -> Int {
        guard let transfer = transfer as? Queued, transfer === queued.first else { throw LibUSBError.invalidParameter }
        queued.removeFirst()
        if transfer.result == nil { transfer.result = next(into: transfer.buffer) }
        return try transfer.result!.get()
    }

    func interruptIn(into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval) throws -> Int {
        throw LibUSBError.timeout
    }

    func classRequestOut(_ request: UInt8, value: UInt16, data: [UInt8], timeout: TimeInterval) throws {}

    func classRequestIn(_ request: UInt8, value: UInt16, length: Int, timeout: TimeInterval) throws -> [UInt8] {
        Array([4, 0, 0x01, 0x20].prefix(length))  // Get Device Status: OK
    }

    func clearHalt(_ endpoint: USBEndpointRole) throws {}
    func resetPort() throws { throw LibUSBError.notFound }
    func interruptTransfers() {}
    func close() {}
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUSBContainer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = bytes.withUnsafeBytes { try? ContainerHeader(usb: $0) }
    let transport = USBTransport(
        pipe: ScriptedPipe(bytes), timeouts: USBTimeouts(transfer: 0.01, control: 0.01, recovery: 0.01),
        chunkSize: 4096, transfersInFlight: 2, drainLimit: 1 << 16)
    defer { transport.close() }
    for (id, operation) in [OperationCode.openSession, .getObjectInfo, .getObject].enumerated() {
        let sink = BufferSink(limit: 1 << 20)
        _ = try? transport.transact(
            PTPCommand(operation, transactionID: UInt32(id), parameters: [1]), dataOut: nil,
            dataIn: operation == .openSession ? nil : sink)
    }
    return 0
}
