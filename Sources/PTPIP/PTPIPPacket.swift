import PTP

/// The packet types of PTP/IP (CIPA DC-005). Every packet starts with `u32 length, u32 type`, little-endian.
public enum PTPIPPacketType: UInt32, Sendable, CaseIterable {
    case initCommandRequest = 1
    case initCommandAck = 2
    case initEventRequest = 3
    case initEventAck = 4
    case initFail = 5
    case commandRequest = 6
    case commandResponse = 7
    case event = 8
    case startData = 9
    case data = 10
    case cancel = 11
    case endData = 12
    case ping = 13
    case pong = 14
}

/// Which way the data phase of a command goes, as the Cmd_Request announces it.
public enum PTPIPDataPhase: UInt32, Sendable {
    /// No data phase, or data from the responder to the initiator.
    case noneOrIn = 1
    /// Data from the initiator to the responder.
    case out = 2
}

/// The protocol version both sides send: major 1, minor 0 (`major << 16 | minor`).
public let ptpipProtocolVersion: UInt32 = 0x0001_0000

/// One PTP/IP packet, decoded. Data and End_Data carry their payload here only for small, whole packets
/// (tests, tools); the transports stream those payloads from the socket instead.
public enum PTPIPPacket: Equatable, Sendable {
    case initCommandRequest(guid: [UInt8], name: String, version: UInt32)
    /// `version` is optional on the wire: gphoto2 ignores it and some cameras leave it out.
    case initCommandAck(connectionNumber: UInt32, guid: [UInt8], name: String, version: UInt32?)
    case initEventRequest(connectionNumber: UInt32)
    case initEventAck
    case initFail(reason: UInt32)
    case commandRequest(dataPhase: PTPIPDataPhase, command: PTPCommand)
    case commandResponse(PTPResponse)
    case event(PTPEvent)
    /// `totalLength` 0xFFFF_FFFF_FFFF_FFFF means "unknown, until End_Data".
    case startData(transactionID: UInt32, totalLength: UInt64)
    case data(transactionID: UInt32, payload: [UInt8])
    case cancel(transactionID: UInt32)
    case endData(transactionID: UInt32, payload: [UInt8])
    case ping
    case pong

    public var type: PTPIPPacketType {
        switch self {
        case .initCommandRequest: .initCommandRequest
        case .initCommandAck: .initCommandAck
        case .initEventRequest: .initEventRequest
        case .initEventAck: .initEventAck
        case .initFail: .initFail
        case .commandRequest: .commandRequest
        case .commandResponse: .commandResponse
        case .event: .event
        case .startData: .startData
        case .data: .data
        case .cancel: .cancel
        case .endData: .endData
        case .ping: .ping
        case .pong: .pong
        }
    }
}

/// The 8 bytes in front of every packet.
public struct PTPIPHeader: Equatable, Sendable {
    public static let size = 8
    /// Control packets (everything but Data and End_Data) are read whole; larger ones are refused.
    public static let maxControlPacketLength: UInt32 = 64 << 10
    /// Data and End_Data start with the transaction id; their payload follows and is streamed.
    public static let dataPrefixSize = 4

    /// The whole packet's length, header included.
    public var length: UInt32
    public var type: PTPIPPacketType

    public init(length: UInt32, type: PTPIPPacketType) {
        self.length = length
        self.type = type
    }

    /// Bytes after the header.
    public var bodyLength: Int { Int(length) - PTPIPHeader.size }

    /// Decodes and checks a header: a known type, a length that covers at least the header and the
    /// type's fixed fields, and, for control packets, at most `maxControlPacketLength`.
    public init(decoding bytes: some Collection<UInt8>) throws {
        var r = PTPReader(Array(bytes.prefix(PTPIPHeader.size)), context: "PTP/IP header")
        let length = try r.uint32()
        let rawType = try r.uint32()
        guard let type = PTPIPPacketType(rawValue: rawType) else {
            throw PTPError.malformed(Malformation("PTP/IP packet", .unknownType(rawType)))
        }
        guard length >= UInt32(PTPIPHeader.size) else {
            throw PTPError.malformed(
                Malformation("PTP/IP \(type) packet", .shorterThanHeader(length: UInt64(length), header: PTPIPHeader.size)))
        }
        switch type {
        case .data, .endData:
            guard length >= UInt32(PTPIPHeader.size + PTPIPHeader.dataPrefixSize) else {
                throw PTPError.malformed(Malformation(
                    "PTP/IP \(type) packet",
                    .shorterThanHeader(length: UInt64(length), header: PTPIPHeader.size + PTPIPHeader.dataPrefixSize)))
            }
        default:
            guard length <= PTPIPHeader.maxControlPacketLength else {
                throw PTPError.malformed(Malformation(
                    "PTP/IP \(type) packet",
                    .longerThanAllowed(length: UInt64(length), limit: UInt64(PTPIPHeader.maxControlPacketLength))))
            }
        }
        self.length = length
        self.type = type
    }

    public func encoded() -> [UInt8] {
        var w = PTPWriter(capacity: PTPIPHeader.size)
        w.uint32(length)
        w.uint32(type.rawValue)
        return w.bytes
    }

    /// The header and transaction id of a Data or End_Data packet whose `payloadLength` bytes follow.
    static func dataPrefix(last: Bool, transactionID: UInt32, payloadLength: Int) -> [UInt8] {
        var w = PTPWriter(capacity: PTPIPHeader.size + PTPIPHeader.dataPrefixSize)
        w.uint32(UInt32(PTPIPHeader.size + PTPIPHeader.dataPrefixSize + payloadLength))
        w.uint32((last ? PTPIPPacketType.endData : .data).rawValue)
        w.uint32(transactionID)
        return w.bytes
    }
}

extension PTPIPPacketType: CustomStringConvertible {
    public var description: String {
        switch self {
        case .initCommandRequest: "Init_Command_Request"
        case .initCommandAck: "Init_Command_Ack"
        case .initEventRequest: "Init_Event_Request"
        case .initEventAck: "Init_Event_Ack"
        case .initFail: "Init_Fail"
        case .commandRequest: "Cmd_Request"
        case .commandResponse: "Cmd_Response"
        case .event: "Event"
        case .startData: "Start_Data"
        case .data: "Data"
        case .cancel: "Cancel"
        case .endData: "End_Data"
        case .ping: "Ping"
        case .pong: "Pong"
        }
    }
}

// MARK: Encoding

extension PTPIPPacket {
    /// The packet as it goes on the wire, header included.
    public func encoded() -> [UInt8] {
        var w = PTPWriter(capacity: 64)
        w.uint32(0)  // length, patched below
        w.uint32(type.rawValue)
        switch self {
        case .initCommandRequest(let guid, let name, let version):
            w.raw(normalizedGUID(guid))
            writeName(name, to: &w)
            w.uint32(version)
        case .initCommandAck(let number, let guid, let name, let version):
            w.uint32(number)
            w.raw(normalizedGUID(guid))
            writeName(name, to: &w)
            if let version { w.uint32(version) }
        case .initEventRequest(let number):
            w.uint32(number)
        case .initEventAck, .ping, .pong:
            break
        case .initFail(let reason):
            w.uint32(reason)
        case .commandRequest(let dataPhase, let command):
            w.uint32(dataPhase.rawValue)
            w.uint16(command.code.rawValue)
            w.uint32(command.transactionID)
            for parameter in command.parameters.prefix(5) { w.uint32(parameter) }
        case .commandResponse(let response):
            w.uint16(response.code.rawValue)
            w.uint32(response.transactionID)
            for parameter in response.parameters.prefix(5) { w.uint32(parameter) }
        case .event(let event):
            w.uint16(event.code.rawValue)
            w.uint32(event.transactionID)
            for parameter in event.parameters.prefix(5) { w.uint32(parameter) }
        case .startData(let transactionID, let totalLength):
            w.uint32(transactionID)
            w.uint64(totalLength)
        case .data(let transactionID, let payload), .endData(let transactionID, let payload):
            w.uint32(transactionID)
            w.raw(payload)
        case .cancel(let transactionID):
            w.uint32(transactionID)
        }
        w.patchUInt32(UInt32(w.bytes.count), at: 0)
        return w.bytes
    }
}

private func normalizedGUID(_ guid: [UInt8]) -> [UInt8] {
    Array((guid + [UInt8](repeating: 0, count: 16)).prefix(16))
}

/// A friendly name: UTF-16LE with a terminating NUL, capped so a control packet stays small.
private func writeName(_ name: String, to w: inout PTPWriter) {
    var units = Array(name.utf16.prefix(1024))
    if let last = units.last, UTF16.isLeadSurrogate(last) { units.removeLast() }
    for unit in units where unit != 0 { w.uint16(unit) }
    w.uint16(0)
}

// MARK: Decoding

extension PTPIPPacket {
    /// Decodes a whole packet, header included. Total: anything malformed throws `PTPError.malformed`.
    public init(decoding bytes: [UInt8]) throws {
        guard bytes.count >= PTPIPHeader.size else {
            throw PTPError.malformed(
                Malformation("PTP/IP packet", .shorterThanHeader(length: UInt64(bytes.count), header: PTPIPHeader.size)))
        }
        let header = try PTPIPHeader(decoding: bytes)
        guard Int(header.length) == bytes.count else {
            throw PTPError.malformed(Malformation(
                "PTP/IP \(header.type) packet", .lengthMismatch(announced: UInt64(header.length), actual: UInt64(bytes.count))))
        }
        try self.init(header: header, body: Array(bytes[PTPIPHeader.size...]))
    }

    /// Decodes a packet's body (the bytes after its header).
    public init(header: PTPIPHeader, body: [UInt8]) throws {
        var r = PTPReader(body, context: "PTP/IP \(header.type)")
        func finish() throws {
            guard r.isAtEnd else {
                throw r.fail(.trailingBytes(r.remaining))
            }
        }
        switch header.type {
        case .initCommandRequest:
            let guid = try r.raw(16)
            let name = try readName(&r)
            guard r.remaining >= 4 else {
                throw r.fail(.missing(field: "protocol version"))
            }
            let version = try r.uint32()
            self = .initCommandRequest(guid: guid, name: name, version: version)
        case .initCommandAck:
            let number = try r.uint32()
            let guid = try r.raw(16)
            let name = try readName(&r)
            var version: UInt32?
            if !r.isAtEnd {
                guard r.remaining >= 4 else {
                    throw r.fail(.trailingBytes(r.remaining))
                }
                version = try r.uint32()
            }
            self = .initCommandAck(connectionNumber: number, guid: guid, name: name, version: version)
        case .initEventRequest:
            self = .initEventRequest(connectionNumber: try r.uint32())
            try finish()
        case .initEventAck:
            self = .initEventAck
            try finish()
        case .initFail:
            // The reason is optional in practice.
            self = .initFail(reason: r.remaining >= 4 ? try r.uint32() : 0)
        case .commandRequest:
            let rawPhase = try r.uint32()
            guard let dataPhase = PTPIPDataPhase(rawValue: rawPhase) else {
                throw r.fail(.invalidValue(field: "data phase", value: UInt64(rawPhase)))
            }
            let code = OperationCode(try r.uint16())
            let transactionID = try r.uint32()
            let parameters = try readParameters(&r)
            self = .commandRequest(
                dataPhase: dataPhase, command: PTPCommand(code, transactionID: transactionID, parameters: parameters))
        case .commandResponse:
            let code = ResponseCode(try r.uint16())
            let transactionID = try r.uint32()
            self = .commandResponse(
                PTPResponse(code, transactionID: transactionID, parameters: try readParameters(&r)))
        case .event:
            let code = EventCode(try r.uint16())
            let transactionID = try r.uint32()
            self = .event(PTPEvent(code, transactionID: transactionID, parameters: try readParameters(&r)))
        case .startData:
            let transactionID = try r.uint32()
            // Some senders (gphoto2) write the length as u32 then a zero u32: the same bytes as a u64.
            self = .startData(transactionID: transactionID, totalLength: try r.uint64())
            try finish()
        case .data:
            self = .data(transactionID: try r.uint32(), payload: r.rest())
        case .endData:
            self = .endData(transactionID: try r.uint32(), payload: r.rest())
        case .cancel:
            self = .cancel(transactionID: try r.uint32())
            try finish()
        case .ping:
            self = .ping
            try finish()
        case .pong:
            self = .pong
            try finish()
        }
    }
}

/// Up to five u32 parameters filling the rest of the body. One to three bytes after the last whole
/// parameter are ignored, as libgphoto2 does: uMTP-Responder 1.3.10 answers an OpenSession on a session it
/// kept open with SessionAlreadyOpen and one stray byte.
private func readParameters(_ r: inout PTPReader) throws -> [UInt32] {
    let count = r.remaining / 4
    guard count <= 5 else { throw r.fail(.tooManyParameters(count)) }
    let parameters = try (0..<count).map { _ in try r.uint32() }
    _ = r.rest()
    return parameters
}

/// A UTF-16LE name up to and including its NUL.
private func readName(_ r: inout PTPReader) throws -> String {
    var units: [UInt16] = []
    while true {
        guard r.remaining >= 2 else {
            throw r.fail(.unterminatedText(field: "friendly name"))
        }
        let unit = try r.uint16()
        if unit == 0 { break }
        units.append(unit)
    }
    var name = ""
    var decoder = UTF16()
    var iterator = units.makeIterator()
    loop: while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): name.unicodeScalars.append(scalar)
        case .emptyInput: break loop
        case .error: throw r.fail(.invalidText(field: "friendly name"))
        }
    }
    return name
}
