import Foundation
import POSIX
import PTP
import Testing

@testable import PTPUSB

/// `serve --usb-gadget`'s pieces that need no kernel: what is written to FunctionFS's ep0, the events read
/// from it, and the connection's framing over pipes standing in for the endpoints (the whole gadget runs in
/// the USB VM: scripts/test-usb-vm-gadget).
struct GadgetTests {
    @Test func theDescriptorsAreAStillImageInterfaceAtFullAndHighSpeed() {
        let bytes = FunctionFSDescriptors.stillImageInterface()
        func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) } }
        #expect(u32(0) == 3)  // v2 magic
        #expect(Int(u32(4)) == bytes.count)
        #expect(u32(8) == 3)  // full and high speed
        #expect(u32(12) == 4 && u32(16) == 4)
        let fullSpeed = Array(bytes[20..<50]), highSpeed = Array(bytes[50..<80])
        #expect(bytes.count == 80)
        for (descriptors, packet) in [(fullSpeed, 64), (highSpeed, 512)] {
            #expect(Array(descriptors[0..<9]) == [9, 4, 0, 0, 3, 6, 1, 1, 1])
            // bulk-in 0x81, bulk-out 0x02, interrupt-in 0x83 (FunctionFS's ep1, ep2, ep3)
            #expect(descriptors[11] == 0x81 && descriptors[12] == 2 && Int(descriptors[13]) | Int(descriptors[14]) << 8 == packet)
            #expect(descriptors[18] == 0x02 && descriptors[19] == 2)
            #expect(descriptors[25] == 0x83 && descriptors[26] == 3)
        }
    }

    @Test func theStringsNameTheInterfaceInUSEnglish() {
        #expect(FunctionFSDescriptors.strings(interfaceName: "MTP") == [2, 0, 0, 0, 22, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0x09, 0x04, 77, 84, 80, 0])
    }

    @Test func eventsAreReadTwelveBytesEach() {
        let setup: [UInt8] = [0xA1, 0x67, 0, 0, 0, 0, 4, 0, 4, 0, 0, 0]
        let enable: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0]
        let events = FunctionFSEvent.decode(setup + enable + [1, 2, 3])
        #expect(events.count == 2)
        guard case .setup(let request) = events[0] else {
            Issue.record("not a setup: \(events[0])")
            return
        }
        #expect(request.request == 0x67 && request.length == 4 && request.isDeviceToHost && request.isClassRequest)
        #expect(events[1] == .enable)
    }

    /// Three pipes stand in for bulk-in, bulk-out and the interrupt endpoint.
    final class Endpoints {
        var toHost: [Int32] = [-1, -1], fromHost: [Int32] = [-1, -1], events: [Int32] = [-1, -1]
        init() {
            _ = pipe(&toHost)
            _ = pipe(&fromHost)
            _ = pipe(&events)
        }
        deinit { for fd in toHost + fromHost + events { close(fd) } }
        func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { write(fromHost[1], $0.baseAddress, $0.count) } }
        func receive(_ count: Int, from fd: Int32) -> [UInt8] { Self.read(count, from: fd) }
        /// `count` bytes from `fd`, or fewer if it ends first.
        static func read(_ count: Int, from fd: Int32) -> [UInt8] {
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: count)
            while out.count < count {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, count - out.count) }
                guard n > 0 else { break }
                out += buffer[0..<n]
            }
            return out
        }
    }

    @Test func aTransactionWithADataPhaseEachWayIsFramedAsUSBs() throws {
        let pipes = Endpoints()
        let connection = GadgetResponderConnection(
            bulkIn: pipes.toHost[1], bulkOut: pipes.fromHost[0], interrupt: pipes.events[1], serial: "TEST")
        defer { connection.close() }
        // SendObjectInfo (a data phase from the host), its data split as the host's transfers may be.
        pipes.send(ContainerCodec.command(PTPCommand(OperationCode(rawValue: 0x100C), transactionID: 7, parameters: [1, 2])))
        let incoming = try #require(try connection.receiveCommand())
        #expect(incoming.command.code.rawValue == 0x100C && incoming.hasDataOut && incoming.command.parameters == [1, 2])
        let payload = (0..<1000).map { UInt8($0 % 251) }
        let header = ContainerHeader(length: UInt32(12 + payload.count), kind: .data, code: 0x100C, transactionID: 7).encoded()
        pipes.send(header + payload[0..<300])
        pipes.send(Array(payload[300...]))
        #expect(try connection.receiveData(transactionID: 7, limit: 4096) == payload)
        try connection.sendResponse(PTPResponse(.ok, transactionID: 7, parameters: [9]))
        #expect(pipes.receive(16, from: pipes.toHost[0]) == ContainerCodec.response(PTPResponse(.ok, transactionID: 7, parameters: [9])))

        // GetObject: a data phase to the host longer than one piece, then its response.
        pipes.send(ContainerCodec.command(PTPCommand(OperationCode(rawValue: 0x1009), transactionID: 8, parameters: [5])))
        let second = try #require(try connection.receiveCommand())
        #expect(!second.hasDataOut)
        let object = (0..<(GadgetResponderConnection.chunk + 777)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        // A pipe holds less than the phase: the host's side reads it as it comes.
        let received = Locked<[UInt8]>([])
        let host = try JoinableThread(name: "host") { [toHost = pipes.toHost[0], count = 12 + object.count] in
            let bytes = Endpoints.read(count, from: toHost)
            received.withLock { $0 = bytes }
        }
        try connection.sendData(transactionID: 8, source: BufferSource(object))
        host.join()
        let bytes = received.withLock { $0 }
        #expect(Array(bytes.prefix(12)) == ContainerHeader(length: UInt32(12 + object.count), kind: .data, code: 0x1009, transactionID: 8).encoded())
        #expect(Array(bytes.dropFirst(12)) == object)
    }

    @Test func eventsGoOutOnTheInterruptEndpoint() throws {
        let pipes = Endpoints()
        let connection = GadgetResponderConnection(
            bulkIn: pipes.toHost[1], bulkOut: pipes.fromHost[0], interrupt: pipes.events[1], serial: "TEST")
        defer { connection.close() }
        let event = PTPEvent(EventCode(0x4002), transactionID: 0, parameters: [0x42])
        try connection.sendEvent(event)
        #expect(pipes.receive(16, from: pipes.events[0]) == ContainerCodec.event(event))
    }

    @Test func aHostThatLeftEndsTheConnection() throws {
        let pipes = Endpoints()
        let connection = GadgetResponderConnection(
            bulkIn: pipes.toHost[1], bulkOut: pipes.fromHost[0], interrupt: pipes.events[1], serial: "TEST")
        connection.hostLeft()
        #expect(throws: PTPError.self) { try connection.receiveCommand() }
        #expect(throws: PTPError.self) { try connection.sendResponse(PTPResponse(.ok, transactionID: 1, parameters: [])) }
    }
}
