@testable import FujiWiFi
import PTP
import TestSupport
import Testing

/// The bytes of Fuji's handshake and containers, as libgphoto2's client and vcam's personas lay them out.
@Suite struct FujiPacketTests {
    @Test func requestIsEightyTwoBytesWithTheMagicBeforeTheGUID() throws {
        let guid = (0..<16).map { UInt8($0) }
        let bytes = FujiHandshake.request(guid: guid, name: "host")
        #expect(bytes.count == 82)
        #expect(Array(bytes[0..<4]) == [82, 0, 0, 0])
        #expect(Array(bytes[4..<8]) == [1, 0, 0, 0])
        #expect(Array(bytes[8..<12]) == [0xF2, 0xE4, 0x53, 0x8F])
        #expect(Array(bytes[12..<28]) == guid)
        #expect(Array(bytes[28..<36]) == [0x68, 0, 0x6F, 0, 0x73, 0, 0x74, 0])
        #expect(bytes[36...].allSatisfy { $0 == 0 })
        #expect(try FujiHandshake.decodeRequest(bytes) == FujiHandshake.Request(guid: guid, name: "host"))
    }

    @Test func aLongNameIsCutAndStillTerminated() throws {
        let bytes = FujiHandshake.request(guid: [], name: String(repeating: "n", count: 100))
        #expect(bytes.count == 82)
        #expect(Array(bytes[80..<82]) == [0, 0])
        #expect(try FujiHandshake.decodeRequest(bytes).name == String(repeating: "n", count: 26))
    }

    @Test func answerIsSixtyEightBytes() throws {
        let bytes = FujiHandshake.acknowledge(guid: Array(repeating: 9, count: 16), name: "X-H1")
        #expect(bytes.count == 0x44)
        #expect(Array(bytes[0..<12]) == [0x44, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0])
        #expect(try FujiHandshake.decodeAnswer(bytes) == .accepted(guid: Array(repeating: 9, count: 16), name: "X-H1"))
        #expect(try FujiHandshake.decodeAnswer(FujiHandshake.fail(reason: 0x2019)) == .refused(reason: 0x2019))
    }

    /// A standard PTP/IP Init_Command_Request (no magic number, another length) is not Fuji's request.
    @Test func aPTPIPRequestIsRefused() {
        var ptpip: [UInt8] = [0, 0, 0, 0, 1, 0, 0, 0] + Array(repeating: 7, count: 16)
        ptpip += [0x68, 0, 0, 0, 0, 0, 1, 0]
        ptpip[0] = UInt8(ptpip.count)
        #expect {
            try FujiHandshake.decodeRequest(ptpip)
        } throws: { error in
            if case PTPError.protocolViolation = error { return true }
            return false
        }
        var wrongLength = FujiHandshake.request(guid: [], name: "x") + [0, 0]
        wrongLength[0] = UInt8(wrongLength.count)
        #expect {
            try FujiHandshake.decodeRequest(wrongLength)
        } throws: { error in
            if case PTPError.malformed = error { return true }
            return false
        }
    }

    @Test func answersThatAreNotFujisAreRefusedByCase() {
        let cases: [[UInt8]] = [
            [8, 0, 0, 0, 7, 0, 0, 0],  // another type
            [12, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0],  // an ack too short for its GUID
            [0x44, 0, 0, 0, 2, 0, 0, 0],  // a length that is not what came
        ]
        for bytes in cases {
            #expect(throws: PTPError.self) { try FujiHandshake.decodeAnswer(bytes) }
        }
        #expect(throws: PTPError.self) { try FujiHandshake.checkedLength(0xFFFF_FFFF, what: "x") }
        #expect(throws: PTPError.self) { try FujiHandshake.checkedLength(4, what: "x") }
    }

    @Test func containerHeaderRoundTripsAndRefusesHostileLengths() throws {
        let command = ContainerCodec.command(PTPCommand(.getPartialObject, transactionID: 5, parameters: [1, 2, 3]))
        #expect(command == [24, 0, 0, 0, 1, 0, 0x1B, 0x10, 5, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0])
        let header = try command.withUnsafeBytes { try ContainerHeader(fuji: $0) }
        #expect(header == ContainerHeader(length: 24, kind: .command, code: 0x101B, transactionID: 5))

        func decodes(_ bytes: [UInt8]) -> Error? {
            do {
                _ = try bytes.withUnsafeBytes { try ContainerHeader(fuji: $0) }
                return nil
            } catch {
                return error
            }
        }
        // Shorter than its header, a response of 100 bytes, an unknown type, a header cut short.
        for hostile: [UInt8] in [
            [5, 0, 0, 0, 3, 0, 1, 0x20, 0, 0, 0, 0],
            [100, 0, 0, 0, 3, 0, 1, 0x20, 0, 0, 0, 0],
            [12, 0, 0, 0, 9, 0, 1, 0x20, 0, 0, 0, 0],
            [12, 0, 0],
        ] {
            guard case PTPError.malformed? = decodes(hostile) else {
                Issue.record("\(hostile) decoded as \(String(describing: decodes(hostile)))")
                continue
            }
        }
        // A data container may announce up to 4 GiB: the reader streams it, the sink bounds it.
        #expect(decodes([0xFF, 0xFF, 0xFF, 0xFF, 2, 0, 9, 0x10, 1, 0, 0, 0]) == nil)
        #expect(throws: PTPError.dataPhaseTooLarge(bytes: 1 << 32, limit: FujiContainer.maximumPayload)) {
            try FujiContainer.dataHeader(code: 0x1009, transactionID: 1, payloadLength: 1 << 32)
        }
    }

    @Test func straysAfterTheLastParameterAreDropped() {
        let body: [UInt8] = [1, 0, 0, 0, 2, 0, 0, 0, 9, 9]
        #expect(body.withUnsafeBytes { ContainerCodec.parameters($0) } == [1, 2])
    }
}
