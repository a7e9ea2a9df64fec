import PTP
@testable import PTPIP
import TestSupport
import Testing

@Suite(.tags(.process), .notInFastRun) struct PacketCodec {
    static let guid: [UInt8] = Array(0..<16)

    static let samples: [PTPIPPacket] = [
        .initCommandRequest(guid: guid, name: "field-laptop", version: ptpipProtocolVersion),
        .initCommandRequest(guid: guid, name: "", version: ptpipProtocolVersion),
        .initCommandRequest(guid: guid, name: "Kamera für 🚁", version: 1),
        .initCommandAck(connectionNumber: 7, guid: guid, name: "Test Camera", version: ptpipProtocolVersion),
        .initCommandAck(connectionNumber: 1, guid: guid, name: "no version", version: nil),
        .initEventRequest(connectionNumber: 0xDEAD_BEEF),
        .initEventAck,
        .initFail(reason: 1),
        .commandRequest(dataPhase: .noneOrIn, command: PTPCommand(.getDeviceInfo, transactionID: 0)),
        .commandRequest(
            dataPhase: .out, command: PTPCommand(.sendObject, transactionID: 9, parameters: [1, 2, 3, 4, 5])),
        .commandResponse(PTPResponse(.ok, transactionID: 3)),
        .commandResponse(PTPResponse(.invalidObjectHandle, transactionID: 4, parameters: [0xFFFF_FFFF, 2])),
        .event(PTPEvent(.objectAdded, parameters: [42])),
        .event(PTPEvent(.captureComplete, transactionID: 5, parameters: [1, 2, 3])),
        .startData(transactionID: 2, totalLength: 5 << 30),
        .startData(transactionID: 2, totalLength: 0),
        .data(transactionID: 2, payload: [1, 2, 3]),
        .data(transactionID: 2, payload: []),
        .cancel(transactionID: 11),
        .endData(transactionID: 2, payload: Array(repeating: 0xAB, count: 1000)),
        .endData(transactionID: 2, payload: []),
        .ping,
        .pong,
    ]

    @Test(arguments: samples)
    func roundTrip(_ packet: PTPIPPacket) throws {
        let bytes = packet.encoded()
        #expect(try PTPIPPacket(decoding: bytes) == packet)
        let header = try PTPIPHeader(decoding: bytes)
        #expect(Int(header.length) == bytes.count)
        #expect(header.type == packet.type)
    }

    @Test func everyTypeHasItsNumber() {
        #expect(Set(Self.samples.map(\.type)) == Set(PTPIPPacketType.allCases))
        #expect(PTPIPPacketType.allCases.map(\.rawValue) == Array(1...14))
    }

    @Test func initCommandRequestWireLayout() {
        let bytes = PTPIPPacket.initCommandRequest(guid: Self.guid, name: "ab", version: ptpipProtocolVersion).encoded()
        // length 8 + 16 + (2 + 1) * 2 + 4 = 34, type 1, GUID, "ab\0" UTF-16LE, minor 0, major 1.
        #expect(bytes == [34, 0, 0, 0, 1, 0, 0, 0] + Self.guid + [0x61, 0, 0x62, 0, 0, 0, 0, 0, 1, 0])
    }

    @Test func commandRequestWireLayout() {
        let bytes = PTPIPPacket.commandRequest(
            dataPhase: .noneOrIn, command: PTPCommand(.getObject, transactionID: 5, parameters: [0x10])
        ).encoded()
        #expect(bytes == [22, 0, 0, 0, 6, 0, 0, 0, 1, 0, 0, 0, 0x09, 0x10, 5, 0, 0, 0, 0x10, 0, 0, 0])
    }

    @Test func startDataAsGphoto2WritesIt() throws {
        // gphoto2 sends the total as u32 then a zero u32: the same bytes as a u64.
        let bytes: [UInt8] = [20, 0, 0, 0, 9, 0, 0, 0, 3, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0]
        #expect(try PTPIPPacket(decoding: bytes) == .startData(transactionID: 3, totalLength: 16))
    }

    @Test func dataPrefixMatchesEncodedPacket() {
        let payload: [UInt8] = [9, 8, 7]
        #expect(PTPIPHeader.dataPrefix(last: true, transactionID: 4, payloadLength: 3) + payload
            == PTPIPPacket.endData(transactionID: 4, payload: payload).encoded())
        #expect(PTPIPHeader.dataPrefix(last: false, transactionID: 4, payloadLength: 3) + payload
            == PTPIPPacket.data(transactionID: 4, payload: payload).encoded())
    }

    // MARK: Hostile input

    /// Decodes `bytes` and expects `PTPError.malformed` with `defect`.
    func expectMalformed(_ bytes: [UInt8], _ defect: Malformation.Defect, sourceLocation: SourceLocation = #_sourceLocation) {
        expectMalformed(bytes, { $0 == defect }, sourceLocation: sourceLocation)
    }

    /// Decodes `bytes` and expects `PTPError.malformed` whose defect passes `check`.
    func expectMalformed(
        _ bytes: [UInt8], _ check: (Malformation.Defect) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let packet = try PTPIPPacket(decoding: bytes)
            Issue.record("decoded \(packet) from hostile bytes", sourceLocation: sourceLocation)
        } catch PTPError.malformed(let malformation) {
            #expect(check(malformation.defect), "\(malformation.defect)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    private static func truncated(_ defect: Malformation.Defect) -> Bool {
        if case .truncated = defect { true } else { false }
    }

    @Test func truncatedHeaders() {
        for count in 0..<8 { expectMalformed(Array(repeating: 0, count: count), .shorterThanHeader(length: UInt64(count), header: 8)) }
    }

    @Test func lengthsThatLie() {
        expectMalformed([4, 0, 0, 0, 13, 0, 0, 0], .shorterThanHeader(length: 4, header: 8))
        expectMalformed([0, 0, 0, 0, 13, 0, 0, 0], .shorterThanHeader(length: 0, header: 8))
        expectMalformed([0xFF, 0xFF, 0xFF, 0xFF, 6, 0, 0, 0], .longerThanAllowed(length: 0xFFFF_FFFF, limit: 65536))
        expectMalformed([0x01, 0x00, 0x01, 0x00, 1, 0, 0, 0], .longerThanAllowed(length: 65537, limit: 65536))
        // A length that disagrees with the bytes at hand.
        expectMalformed([12, 0, 0, 0, 13, 0, 0, 0], .lengthMismatch(announced: 12, actual: 8))
        // Data packets may be huge (they are streamed) but must hold a transaction id.
        expectMalformed([10, 0, 0, 0, 10, 0, 0, 0, 1, 0], .shorterThanHeader(length: 10, header: 12))
    }

    @Test func unknownTypes() {
        expectMalformed([8, 0, 0, 0, 0, 0, 0, 0], .unknownType(0))
        expectMalformed([8, 0, 0, 0, 15, 0, 0, 0], .unknownType(15))
        expectMalformed([8, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF], .unknownType(4_294_967_295))
    }

    @Test func garbage() {
        var generator = SeededRandom(test: "PTP/IP packet garbage")
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<64, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if bytes.count >= 8, Bool.random(using: &generator) {
                // A plausible header over random contents reaches the per-type decoders.
                bytes[0] = UInt8(count)
                bytes[1] = 0; bytes[2] = 0; bytes[3] = 0
                bytes[4] = UInt8.random(in: 1...14, using: &generator)
                bytes[5] = 0; bytes[6] = 0; bytes[7] = 0
            }
            do {
                _ = try PTPIPPacket(decoding: bytes)
            } catch let error as PTPError {
                guard case .malformed = error else {
                    Issue.record("garbage \(bytes) gave \(error), not .malformed; \(generator)")
                    return
                }
            } catch {
                Issue.record("garbage \(bytes) gave a foreign error \(error); \(generator)")
                return
            }
        }
    }

    @Test func sixParameters() {
        let six = PTPIPPacket.commandRequest(
            dataPhase: .noneOrIn, command: PTPCommand(.getObject, transactionID: 1, parameters: [1, 2, 3, 4, 5])
        ).encoded() + [6, 0, 0, 0]
        var bytes = six
        bytes[0] = UInt8(bytes.count)
        expectMalformed(bytes, .tooManyParameters(6))

        var response = PTPIPPacket.commandResponse(PTPResponse(.ok, transactionID: 1, parameters: [1, 2, 3, 4, 5]))
            .encoded() + [6, 0, 0, 0]
        response[0] = UInt8(response.count)
        expectMalformed(response, .tooManyParameters(6))

    }

    /// uMTP-Responder 1.3.10 answers OpenSession on a session it kept with SessionAlreadyOpen plus one stray
    /// byte; like libgphoto2, the bytes after the last whole parameter are ignored.
    @Test func strayBytesAfterTheParametersAreIgnored() throws {
        var response = PTPIPPacket.commandResponse(PTPResponse(.sessionAlreadyOpen, transactionID: 0)).encoded() + [1]
        response[0] = UInt8(response.count)
        #expect(try PTPIPPacket(decoding: response) == .commandResponse(PTPResponse(.sessionAlreadyOpen, transactionID: 0)))
        var event = PTPIPPacket.event(PTPEvent(.objectAdded, parameters: [1])).encoded() + [0, 0]
        event[0] = UInt8(event.count)
        #expect(try PTPIPPacket(decoding: event) == .event(PTPEvent(.objectAdded, parameters: [1])))
    }

    @Test func badDataPhase() {
        var bytes = PTPIPPacket.commandRequest(dataPhase: .out, command: PTPCommand(.getObject, transactionID: 1))
            .encoded()
        bytes[8] = 3
        expectMalformed(bytes, .invalidValue(field: "data phase", value: 3))
    }

    @Test func badNames() {
        func request(nameBytes: [UInt8], version: [UInt8] = [0, 0, 1, 0]) -> [UInt8] {
            let body = Self.guid + nameBytes + version
            return [UInt8(8 + body.count), 0, 0, 0, 1, 0, 0, 0] + body
        }
        // Odd length: half a UTF-16 unit, then the packet ends.
        expectMalformed(request(nameBytes: [0x41, 0x00, 0x42], version: []), .unterminatedText(field: "friendly name"))
        // No terminator at all.
        expectMalformed(request(nameBytes: [0x41, 0x00, 0x42, 0x00], version: []), .unterminatedText(field: "friendly name"))
        // A lone surrogate.
        expectMalformed(request(nameBytes: [0x00, 0xD8, 0x41, 0x00, 0x00, 0x00]), .invalidText(field: "friendly name"))
        // Name fine, version cut.
        expectMalformed(request(nameBytes: [0x41, 0x00, 0x00, 0x00], version: [0, 0]), .missing(field: "protocol version"))
        // GUID cut short.
        expectMalformed([16, 0, 0, 0, 1, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8], Self.truncated)
        // An ack with stray bytes after its name.
        let ack = [UInt8](arrayLiteral: 1, 0, 0, 0) + Self.guid + [0x41, 0, 0, 0, 9]
        expectMalformed([UInt8(8 + ack.count), 0, 0, 0, 2, 0, 0, 0] + ack, .trailingBytes(1))
    }

    @Test func fixedSizePacketsRefuseExtraBytes() {
        expectMalformed([9, 0, 0, 0, 13, 0, 0, 0, 0], .trailingBytes(1))
        expectMalformed([13, 0, 0, 0, 4, 0, 0, 0, 1, 2, 3, 4, 5], .trailingBytes(5))
        expectMalformed([11, 0, 0, 0, 11, 0, 0, 0, 1, 2, 3], Self.truncated)
        expectMalformed([16, 0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0, 1, 2, 3, 4], Self.truncated)
    }
}
