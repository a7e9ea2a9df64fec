import PTP

/// The two packets that open a Fujifilm Wi-Fi connection, before any container: the host's 82-byte
/// request and the camera's fixed 0x44-byte answer. Shaped like PTP/IP's Init_Command_Request/Ack
/// (u32 length, u32 type) but not PTP/IP: the request carries Fuji's magic number where PTP/IP has
/// nothing, its length is fixed (an X-T4 closes the socket on any other), and no event socket follows.
public enum FujiHandshake {
    /// The number in the request's third field (where PTP/IP would put nothing): what makes it Fuji's.
    public static let magic: UInt32 = 0x8f53_e4f2
    /// Every request is exactly this long, name padded with zeros.
    public static let requestLength = 82
    /// The answer is exactly this long: length, type, a u32 (0), the camera's GUID and 40 bytes of name.
    public static let acknowledgeLength = 0x44
    /// Bytes of the request's name field (UTF-16LE, NUL-padded): 26 characters and a terminator.
    static let requestNameBytes = requestLength - 28
    /// Bytes of the answer's name field (UTF-16LE, NUL-padded).
    static let acknowledgeNameBytes = acknowledgeLength - 28
    /// The largest first packet either side reads: anything longer is not a Fuji handshake.
    public static let maximumLength = 1024

    public static let typeRequest: UInt32 = 1
    public static let typeAcknowledge: UInt32 = 2
    /// PTP/IP's Init_Fail: a camera that refuses this host (not paired, or in another Wi-Fi mode).
    public static let typeFail: UInt32 = 5

    /// The host's request: length 82, type 1, the magic number, a 16-byte GUID, the host's name.
    public static func request(guid: [UInt8], name: String) -> [UInt8] {
        var w = PTPWriter(capacity: requestLength)
        w.uint32(UInt32(requestLength))
        w.uint32(typeRequest)
        w.uint32(magic)
        w.raw(sixteen(guid))
        w.raw(utf16Field(name, bytes: requestNameBytes))
        return w.bytes
    }

    /// The camera's answer: length 0x44, type 2, 0, its GUID, its name.
    public static func acknowledge(guid: [UInt8], name: String) -> [UInt8] {
        var w = PTPWriter(capacity: acknowledgeLength)
        w.uint32(UInt32(acknowledgeLength))
        w.uint32(typeAcknowledge)
        w.uint32(0)
        w.raw(sixteen(guid))
        w.raw(utf16Field(name, bytes: acknowledgeNameBytes))
        return w.bytes
    }

    /// Init_Fail with a reason, as a camera that refuses the host sends it.
    public static func fail(reason: UInt32) -> [UInt8] {
        var w = PTPWriter(capacity: 12)
        w.uint32(12)
        w.uint32(typeFail)
        w.uint32(reason)
        return w.bytes
    }

    /// What a responder learned from a request.
    public struct Request: Equatable, Sendable {
        public var guid: [UInt8]
        public var name: String
    }

    /// Decodes a whole request (`bytes` is the packet, its length field included). The length must be the
    /// one Fuji uses and the magic number present: a standard PTP/IP request is refused, by name.
    public static func decodeRequest(_ bytes: [UInt8]) throws -> Request {
        var r = PTPReader(bytes, context: "Fuji init request")
        let length = try r.uint32()
        let type = try r.uint32()
        guard length == UInt32(bytes.count) else {
            throw r.fail(.lengthMismatch(announced: UInt64(length), actual: UInt64(bytes.count)))
        }
        guard type == typeRequest else {
            throw PTPError.protocolViolation(ProtocolViolation(.notFujiInitRequest(type: type)))
        }
        let third = try r.uint32()
        guard third == magic else {
            throw PTPError.protocolViolation(ProtocolViolation(.notFujiMagic(found: third)))
        }
        guard bytes.count == requestLength else {
            throw r.fail(.unexpectedLength(length: bytes.count, expected: requestLength))
        }
        let guid = try r.raw(16)
        return Request(guid: guid, name: decodeUTF16Field(r.rest()))
    }

    /// What the camera said: who it is, or that it refused.
    public enum Answer: Equatable, Sendable {
        case accepted(guid: [UInt8], name: String)
        /// Init_Fail and its reason: this host is not allowed (pairing, or the camera's Wi-Fi mode).
        case refused(reason: UInt32)
    }

    /// Decodes the camera's whole answer (`bytes` is the packet, length field included).
    public static func decodeAnswer(_ bytes: [UInt8]) throws -> Answer {
        var r = PTPReader(bytes, context: "Fuji init answer")
        let length = try r.uint32()
        let type = try r.uint32()
        guard length == UInt32(bytes.count) else {
            throw r.fail(.lengthMismatch(announced: UInt64(length), actual: UInt64(bytes.count)))
        }
        switch type {
        case typeAcknowledge:
            _ = try r.uint32()
            let guid = try r.raw(16)
            return .accepted(guid: guid, name: decodeUTF16Field(r.rest()))
        case typeFail:
            return .refused(reason: r.remaining >= 4 ? try r.uint32() : 0)
        default:
            throw PTPError.protocolViolation(
                ProtocolViolation(.unexpected(sent: "a packet of type \(type)", expected: .answer(to: "Fuji's init request"))))
        }
    }

    /// The length a first packet announces, checked before its body is read: at least its 8-byte head and
    /// at most `maximumLength`.
    static func checkedLength(_ length: UInt32, what: String) throws -> Int {
        guard length >= 8, length <= UInt32(maximumLength) else {
            throw PTPError.malformed(
                Malformation(what, .lengthOutOfRange(length: UInt64(length), minimum: 8, maximum: UInt64(maximumLength))))
        }
        return Int(length)
    }

    private static func sixteen(_ guid: [UInt8]) -> [UInt8] {
        Array((guid + [UInt8](repeating: 0, count: 16)).prefix(16))
    }

    /// `text` as UTF-16LE in a field of `bytes` bytes, cut to leave at least one NUL.
    private static func utf16Field(_ text: String, bytes: Int) -> [UInt8] {
        var field: [UInt8] = []
        field.reserveCapacity(bytes)
        for unit in text.utf16.prefix((bytes - 2) / 2) {
            field.append(UInt8(truncatingIfNeeded: unit))
            field.append(UInt8(truncatingIfNeeded: unit >> 8))
        }
        field += [UInt8](repeating: 0, count: bytes - field.count)
        return field
    }

    /// A NUL-terminated (or padded) UTF-16LE name; an odd last byte is dropped.
    private static func decodeUTF16Field(_ bytes: [UInt8]) -> String {
        var units: [UInt16] = []
        var i = 0
        while i + 1 < bytes.count {
            let unit = UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
            if unit == 0 { break }
            units.append(unit)
            i += 2
        }
        return String(decoding: units, as: UTF16.self)
    }
}
