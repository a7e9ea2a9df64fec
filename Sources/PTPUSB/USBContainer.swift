import PTP

/// The USB still-image class container (PIMA 15740 annex D): every command, data phase, response and
/// event travels as a u32 length (header included), a u16 type, a u16 operation/response/event code,
/// a u32 transaction id, then the payload. All little-endian.
struct USBContainerHeader: Equatable, Sendable {
    static let size = 12
    /// The length value meaning "more than 4 GiB: read until a short packet".
    static let unknownLength: UInt32 = 0xFFFF_FFFF

    enum Kind: UInt16, Sendable, CustomStringConvertible {
        case command = 1, data = 2, response = 3, event = 4
        var description: String {
            switch self {
            case .command: "command"
            case .data: "data"
            case .response: "response"
            case .event: "event"
            }
        }
    }

    var length: UInt32
    var kind: Kind
    var code: UInt16
    var transactionID: UInt32

    init(length: UInt32, kind: Kind, code: UInt16, transactionID: UInt32) {
        self.length = length
        self.kind = kind
        self.code = code
        self.transactionID = transactionID
    }

    /// Decodes and checks the first 12 bytes of `bytes`: a known type, and a length that fits the type
    /// (commands, responses and events carry at most five parameters, and perhaps a few stray bytes).
    init(decoding bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count >= Self.size else {
            throw PTPError.malformed(Malformation("USB container", .shorterThanHeader(length: UInt64(bytes.count), header: Self.size)))
        }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
        length = u32(0)
        let rawKind = u16(4)
        code = u16(6)
        transactionID = u32(8)
        guard let kind = Kind(rawValue: rawKind) else {
            throw PTPError.malformed(Malformation("USB container", .unknownType(UInt32(rawKind))))
        }
        self.kind = kind
        guard length >= UInt32(Self.size) else {
            throw PTPError.malformed(Malformation("USB \(kind) container", .shorterThanHeader(length: UInt64(length), header: Self.size)))
        }
        if kind != .data {
            let parameters = length - UInt32(Self.size)
            // Up to three stray bytes after the last whole parameter are ignored, as libgphoto2 does
            // (uMTP-Responder 1.3.10 sends a 13-byte SessionAlreadyOpen response).
            guard parameters < 24 else {
                throw PTPError.malformed(
                    Malformation("USB \(kind) container", .longerThanAllowed(length: UInt64(length), limit: UInt64(Self.size + 20 + 3))))
            }
        }
    }

    func encode(into bytes: inout [UInt8]) {
        var w = PTPWriter(capacity: Self.size)
        w.uint32(length)
        w.uint16(kind.rawValue)
        w.uint16(code)
        w.uint32(transactionID)
        bytes.append(contentsOf: w.bytes)
    }

    /// Bytes after the header; nil for the "longer than 4 GiB" marker.
    var payloadLength: UInt64? {
        length == Self.unknownLength && kind == .data ? nil : UInt64(length) - UInt64(Self.size)
    }
}

enum USBContainer {
    /// A complete command container.
    static func command(_ command: PTPCommand) -> [UInt8] {
        let parameters = command.parameters.prefix(5)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(USBContainerHeader.size + 4 * parameters.count)
        USBContainerHeader(
            length: UInt32(USBContainerHeader.size + 4 * parameters.count), kind: .command,
            code: command.code.rawValue, transactionID: command.transactionID
        ).encode(into: &bytes)
        var w = PTPWriter()
        for p in parameters { w.uint32(p) }
        bytes += w.bytes
        return bytes
    }

    /// The header of a data phase of `payload` bytes (lengths past 4 GiB announce 0xFFFFFFFF).
    static func dataHeader(code: UInt16, transactionID: UInt32, payload: UInt64) -> [UInt8] {
        let total = payload + UInt64(USBContainerHeader.size)
        var bytes: [UInt8] = []
        USBContainerHeader(
            length: total >= UInt64(USBContainerHeader.unknownLength) ? USBContainerHeader.unknownLength : UInt32(total),
            kind: .data, code: code, transactionID: transactionID
        ).encode(into: &bytes)
        return bytes
    }

    /// The parameters after a response or event header.
    static func parameters(_ bytes: ArraySlice<UInt8>) -> [UInt32] {
        var result: [UInt32] = []
        var i = bytes.startIndex
        while i + 4 <= bytes.endIndex {
            result.append(
                UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
            i += 4
        }
        return result
    }
}
