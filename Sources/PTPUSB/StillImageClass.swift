import Foundation
import PTP

/// The still-image class requests on the control pipe (PIMA 15740 annex D.5), addressed to the interface.
enum StillImageRequest {
    /// Host to device: abandon the transaction whose id follows (data: u16 0x4001, u32 transaction id).
    static let cancel: UInt8 = 0x64
    /// Device to host: event data that did not fit the interrupt pipe.
    static let getExtendedEventData: UInt8 = 0x65
    /// Host to device: back to the idle state, session closed.
    static let deviceReset: UInt8 = 0x66
    /// Device to host: u16 length, u16 response code, then the addresses of halted endpoints (u32 each).
    static let getDeviceStatus: UInt8 = 0x67
}

/// What Get Device Status answered.
public struct USBDeviceStatus: Equatable, Sendable, CustomStringConvertible {
    /// OK when idle, DeviceBusy while finishing, TransactionCancelled after a cancel, or the reason it
    /// stalled a pipe.
    public var code: ResponseCode
    /// Addresses of the endpoints the device halted (0x81, 0x02, ...).
    public var haltedEndpoints: [UInt8]

    public init(code: ResponseCode, haltedEndpoints: [UInt8] = []) {
        self.code = code
        self.haltedEndpoints = haltedEndpoints
    }

    init(decoding bytes: [UInt8]) throws {
        guard bytes.count >= 4 else {
            throw PTPError.malformed(Malformation("Get Device Status answer", .tooShort(length: bytes.count, minimum: 4)))
        }
        let length = min(Int(UInt16(bytes[0]) | UInt16(bytes[1]) << 8), bytes.count)
        code = ResponseCode(UInt16(bytes[2]) | UInt16(bytes[3]) << 8)
        haltedEndpoints = ContainerCodec.parameters(bytes[4..<max(4, length)]).map { UInt8(truncatingIfNeeded: $0) }
    }

    static func encode(_ status: USBDeviceStatus) -> [UInt8] {
        var w = PTPWriter()
        w.uint16(UInt16(4 + 4 * status.haltedEndpoints.count))
        w.uint16(status.code.rawValue)
        for e in status.haltedEndpoints { w.uint32(UInt32(e)) }
        return w.bytes
    }

    public var description: String {
        haltedEndpoints.isEmpty
            ? "\(code)" : "\(code), halted endpoints \(haltedEndpoints.map { "0x" + String($0, radix: 16) })"
    }
}

extension USBPipe {
    func cancelRequest(transactionID: UInt32, timeout: TimeInterval) throws {
        var w = PTPWriter()
        w.uint16(EventCode.cancelTransaction.rawValue)
        w.uint32(transactionID)
        try classRequestOut(StillImageRequest.cancel, value: 0, data: w.bytes, timeout: timeout)
    }

    func deviceStatus(timeout: TimeInterval) throws -> USBDeviceStatus {
        try USBDeviceStatus(
            decoding: try classRequestIn(StillImageRequest.getDeviceStatus, value: 0, length: 64, timeout: timeout))
    }

    func deviceResetRequest(timeout: TimeInterval) throws {
        try classRequestOut(StillImageRequest.deviceReset, value: 0, data: [], timeout: timeout)
    }
}
