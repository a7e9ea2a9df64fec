/// The container of the USB still image class (PIMA 15740 annex D), which Fujifilm's Wi-Fi protocol also
/// speaks once its handshake is done: a u32 length (the header included), a u16 type, a u16 operation,
/// response or event code, a u32 transaction id, then parameters or a data payload; all little-endian.
/// One codec for both transports: the header is checked the same way wherever it came from.
public struct ContainerHeader: Equatable, Sendable {
    public static let size = 12
    /// Commands, responses and events carry at most five parameters; up to three stray bytes after the
    /// last whole one are tolerated, as libgphoto2 does (uMTP-Responder 1.3.10 sends a 13-byte
    /// SessionAlreadyOpen response).
    public static let maximumControlLength = UInt32(size + 5 * 4 + 3)
    /// The length a USB data container announces for more than 4 GiB: read until a short packet.
    public static let unknownLength: UInt32 = 0xFFFF_FFFF

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

    /// Decodes and checks the first 12 bytes of `bytes`: a known type, a length no shorter than the header
    /// and, for anything but data, no longer than five parameters allow. `transport` names the container in
    /// an error ("USB", "Fuji").
    public init(decoding bytes: UnsafeRawBufferPointer, on transport: String) throws {
        guard bytes.count >= Self.size else {
            throw PTPError.malformed(
                Malformation("\(transport) container", .shorterThanHeader(length: UInt64(bytes.count), header: Self.size)))
        }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
        length = u32(0)
        let rawKind = u16(4)
        code = u16(6)
        transactionID = u32(8)
        guard let kind = Kind(rawValue: rawKind) else {
            throw PTPError.malformed(Malformation("\(transport) container", .unknownType(UInt32(rawKind))))
        }
        self.kind = kind
        guard length >= UInt32(Self.size) else {
            throw PTPError.malformed(
                Malformation("\(transport) \(kind) container", .shorterThanHeader(length: UInt64(length), header: Self.size)))
        }
        if kind != .data, length > Self.maximumControlLength {
            throw PTPError.malformed(
                Malformation(
                    "\(transport) \(kind) container",
                    .longerThanAllowed(length: UInt64(length), limit: UInt64(Self.maximumControlLength))))
        }
    }

    /// The bytes after the header, as its length says.
    public var payloadLength: UInt64 { UInt64(length) - UInt64(Self.size) }

    /// A USB data container longer than 4 GiB, whose end is a short packet, not its length.
    public var announcesUnknownLength: Bool { kind == .data && length == Self.unknownLength }

    public func encoded() -> [UInt8] {
        var w = PTPWriter(capacity: Self.size)
        w.uint32(length)
        w.uint16(kind.rawValue)
        w.uint16(code)
        w.uint32(transactionID)
        return w.bytes
    }

    public func encode(into bytes: inout [UInt8]) { bytes += encoded() }
}

/// Whole containers as bytes (those that are never large), and the parameters read back from one.
public enum ContainerCodec {
    public static func command(_ command: PTPCommand) -> [UInt8] {
        control(.command, code: command.code.rawValue, transactionID: command.transactionID, parameters: command.parameters)
    }

    public static func response(_ response: PTPResponse) -> [UInt8] {
        control(.response, code: response.code.rawValue, transactionID: response.transactionID, parameters: response.parameters)
    }

    public static func event(_ event: PTPEvent) -> [UInt8] {
        control(.event, code: event.code.rawValue, transactionID: event.transactionID, parameters: event.parameters)
    }

    /// A command, response or event container with at most five parameters (more are dropped).
    public static func control(_ kind: ContainerHeader.Kind, code: UInt16, transactionID: UInt32, parameters: [UInt32]) -> [UInt8] {
        let kept = parameters.prefix(5)
        var w = PTPWriter(capacity: ContainerHeader.size + 4 * kept.count)
        w.uint32(UInt32(ContainerHeader.size + 4 * kept.count))
        w.uint16(kind.rawValue)
        w.uint16(code)
        w.uint32(transactionID)
        for parameter in kept { w.uint32(parameter) }
        return w.bytes
    }

    /// The whole parameters of a control container's body (stray bytes after the last whole one dropped).
    public static func parameters(_ body: UnsafeRawBufferPointer) -> [UInt32] {
        stride(from: 0, to: body.count - body.count % 4, by: 4).map { at in
            UInt32(body[at]) | UInt32(body[at + 1]) << 8 | UInt32(body[at + 2]) << 16 | UInt32(body[at + 3]) << 24
        }
    }

    public static func parameters(_ body: ArraySlice<UInt8>) -> [UInt32] { body.withUnsafeBytes { parameters($0) } }
}

extension ContainerHeader {
    /// Checks, on a responder, that this header opens the data phase of `transactionID` that it waits for
    /// after a command (`peer` names the initiator in the error).
    public func requireDataPhase(of transactionID: UInt32, peer: String) throws {
        guard kind == .data else {
            throw PTPError.protocolViolation(ProtocolViolation(.unexpected(sent: "a \(kind) container", expected: .dataPhase), peer: peer))
        }
        guard self.transactionID == transactionID else {
            throw PTPError.protocolViolation(ProtocolViolation(
                .wrongTransaction(packet: "data", found: self.transactionID, expected: transactionID), peer: peer))
        }
    }
}
