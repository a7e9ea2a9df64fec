import PTP

/// After the handshake, everything on Fuji's command socket (and its event socket) is a USB-style
/// container: u32 length (header included), u16 type, u16 code, u32 transaction id, then parameters or
/// a data payload. A data phase is one container, whatever its size; the host announces no data phase
/// in its command (libgphoto2 always writes 1 where PTP/IP has it), the container that follows says.
public struct FujiContainerHeader: Equatable, Sendable {
    public static let size = 12
    /// Commands, responses and events carry at most five parameters; up to three stray bytes after the
    /// last whole one are tolerated (as libgphoto2 does for USB).
    public static let maximumControlLength = UInt32(size + 5 * 4 + 3)

    public enum Kind: UInt16, Sendable, CustomStringConvertible {
        case command = 1, data = 2, response = 3, event = 4
        public var description: String {
            switch self {
            case .command: "command"
            case .data: "data"
            case .response: "response"
            case .event: "event"
            }
        }
    }

    public var length: UInt32
    public var kind: Kind
    public var code: UInt16
    public var transactionID: UInt32

    public init(length: UInt32, kind: Kind, code: UInt16, transactionID: UInt32) {
        self.length = length
        self.kind = kind
        self.code = code
        self.transactionID = transactionID
    }

    /// Decodes and checks a 12-byte header: a known type, a length no shorter than the header and, for
    /// anything but data, no longer than five parameters allow.
    public init(decoding bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count >= Self.size else {
            throw PTPError.malformed(Malformation("Fuji container", .shorterThanHeader(length: UInt64(bytes.count), header: Self.size)))
        }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
        length = u32(0)
        let rawKind = u16(4)
        code = u16(6)
        transactionID = u32(8)
        guard let kind = Kind(rawValue: rawKind) else {
            throw PTPError.malformed(Malformation("Fuji container", .unknownType(UInt32(rawKind))))
        }
        self.kind = kind
        guard length >= UInt32(Self.size) else {
            throw PTPError.malformed(Malformation("Fuji \(kind) container", .shorterThanHeader(length: UInt64(length), header: Self.size)))
        }
        if kind != .data, length > Self.maximumControlLength {
            throw PTPError.malformed(
                Malformation("Fuji \(kind) container", .longerThanAllowed(length: UInt64(length), limit: UInt64(Self.maximumControlLength))))
        }
    }

    /// The bytes after the header.
    public var payloadLength: UInt64 { UInt64(length) - UInt64(Self.size) }

    public func encoded() -> [UInt8] {
        var w = PTPWriter(capacity: Self.size)
        w.uint32(length)
        w.uint16(kind.rawValue)
        w.uint16(code)
        w.uint32(transactionID)
        return w.bytes
    }
}

/// Whole containers as bytes, for the packets that are never large.
public enum FujiContainer {
    /// The largest data phase one container can carry (its length field is 32 bits).
    public static let maximumPayload = UInt64(UInt32.max) - UInt64(FujiContainerHeader.size)

    public static func command(_ command: PTPCommand) -> [UInt8] {
        control(.command, code: command.code.rawValue, transactionID: command.transactionID, parameters: command.parameters)
    }

    public static func response(_ response: PTPResponse) -> [UInt8] {
        control(.response, code: response.code.rawValue, transactionID: response.transactionID, parameters: response.parameters)
    }

    public static func event(_ event: PTPEvent) -> [UInt8] {
        control(.event, code: event.code.rawValue, transactionID: event.transactionID, parameters: event.parameters)
    }

    /// The head of a data container of `payloadLength` bytes (the payload follows).
    public static func dataHeader(code: UInt16, transactionID: UInt32, payloadLength: UInt64) throws -> [UInt8] {
        guard payloadLength <= maximumPayload else {
            throw PTPError.dataPhaseTooLarge(bytes: payloadLength, limit: maximumPayload)
        }
        return FujiContainerHeader(
            length: UInt32(payloadLength) + UInt32(FujiContainerHeader.size), kind: .data, code: code,
            transactionID: transactionID
        ).encoded()
    }

    static func control(_ kind: FujiContainerHeader.Kind, code: UInt16, transactionID: UInt32, parameters: [UInt32]) -> [UInt8] {
        let kept = parameters.prefix(5)
        var w = PTPWriter(capacity: FujiContainerHeader.size + 4 * kept.count)
        w.uint32(UInt32(FujiContainerHeader.size + 4 * kept.count))
        w.uint16(kind.rawValue)
        w.uint16(code)
        w.uint32(transactionID)
        for parameter in kept { w.uint32(parameter) }
        return w.bytes
    }

    /// The whole parameters of a control container's body (stray bytes after the last whole one dropped).
    static func parameters(_ body: UnsafeRawBufferPointer) -> [UInt32] {
        stride(from: 0, to: body.count - body.count % 4, by: 4).map { at in
            UInt32(body[at]) | UInt32(body[at + 1]) << 8 | UInt32(body[at + 2]) << 16 | UInt32(body[at + 3]) << 24
        }
    }
}
