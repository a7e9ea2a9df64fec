import Foundation
import POSIX
import PTP
@testable import PTPIP
import TestSupport
import Testing

/// A session that must still work after a hostile peer: the server keeps serving.
private func expectGoodClientWorks(_ server: PTPIPServer, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let session = PTPSession(transport: try connectInitiator(to: server))
        defer { session.close() }
        try session.open()
        #expect(session.deviceInfo.model == "Loopback Responder", sourceLocation: sourceLocation)
    } catch {
        Issue.record("a good client failed after a hostile one: \(error)", sourceLocation: sourceLocation)
    }
}

private let requestBytes = PTPIPPacket.initCommandRequest(
    guid: Array(repeating: 7, count: 16), name: "hostile", version: ptpipProtocolVersion
).encoded()

extension Network {
    @Suite(.tags(.port), .notInFastRun) struct HostileClients {
        /// What a hostile client sends on a fresh socket before closing it, and what the log must say.
        struct Case: Sendable, CustomTestStringConvertible {
            var name: String
            var bytes: [UInt8]
            var logged: [String]
            var testDescription: String { name }
        }

        static let cases: [Case] = [
            Case(name: "an HTTP request", bytes: Array("GET / HTTP/1.1\r\n\r\n".utf8),
                 logged: ["dropped: malformed packet", "unknown type"]),
            Case(name: "a lying length", bytes: [0xF0, 0xFF, 0xFF, 0xFF, 1, 0, 0, 0],
                 logged: ["dropped: malformed packet", "claims 4294967280 bytes"]),
            Case(name: "a length shorter than the header", bytes: [3, 0, 0, 0, 1, 0, 0, 0],
                 logged: ["dropped: malformed packet", "shorter than its header"]),
            Case(name: "half a packet", bytes: Array(requestBytes.prefix(20)),
                 logged: ["dropped:", "in the middle of a Init_Command_Request packet (12 of"]),
            Case(name: "half a header", bytes: [40, 0, 0],
                 logged: ["dropped:", "after 3 bytes of a packet header"]),
            Case(name: "nothing at all", bytes: [],
                 logged: ["closed before sending Init_Command_Request"]),
            Case(name: "a command before the handshake",
                 bytes: PTPIPPacket.commandRequest(dataPhase: .noneOrIn, command: PTPCommand(.getDeviceInfo, transactionID: 0)).encoded(),
                 logged: ["dropped: sent Cmd_Request instead of Init_Command_Request"]),
            Case(name: "a name that is not UTF-16",
                 bytes: [32, 0, 0, 0, 1, 0, 0, 0] + Array(repeating: 0, count: 16) + [0x00, 0xDC, 0, 0, 0, 0, 1, 0],
                 logged: ["dropped: malformed packet", "not valid UTF-16"]),
        ]

        @Test(arguments: cases)
        func hostileFirstPacket(_ hostile: Case) throws {
            let log = LogLines()
            let server = try startServer(log: log)
            defer { server.stop() }
            do {
                let client = try RawClient(port: server.port)
                try client.send(hostile.bytes)
                client.socket.close()
            }
            let line = log.waitFor(hostile.logged)
            #expect(line != nil, "log: \(log.lines.all)")
            expectGoodClientWorks(server)
        }

        @Test func silentClientTimesOut() throws {
            let log = LogLines()
            let server = try startServer(timeouts: PTPIPTimeouts(connect: 5, read: 5, handshake: 0.3), log: log)
            defer { server.stop() }
            let client = try RawClient(port: server.port)
            // The silent client does not hold up others.
            expectGoodClientWorks(server)
            #expect(log.waitFor("dropped: timed out", "sent nothing for 0.3 s") != nil, "log: \(log.lines.all)")
            // The server closed the socket: our end reads the end of the stream.
            #expect(try client.stream.read(firstByteTimeout: 10) == nil)
        }

        @Test func eventSocketForAnUnknownConnectionIsRefused() throws {
            let log = LogLines()
            let server = try startServer(log: log)
            defer { server.stop() }
            let client = try RawClient(port: server.port)
            try client.stream.write(.initEventRequest(connectionNumber: 4711))
            #expect(try client.stream.readControl(firstByteTimeout: 10) == .initFail(reason: 1))
            #expect(log.waitFor("unknown connection number 4711") != nil)
            expectGoodClientWorks(server)
        }

        /// After a good handshake, what the client sends on the command socket; the handler's error is logged.
        static let sessionCases: [Case] = [
            Case(name: "six parameters",
                 bytes: {
                     var bytes = PTPIPPacket.commandRequest(dataPhase: .noneOrIn,
                         command: PTPCommand(.getObject, transactionID: 1, parameters: [1, 2, 3, 4, 5])).encoded() + [6, 0, 0, 0]
                     bytes[0] = UInt8(bytes.count)
                     return bytes
                 }(),
                 logged: ["connection", "(hostile)", "malformed packet", "6 parameters"]),
            Case(name: "data instead of a command",
                 bytes: PTPIPHeader.dataPrefix(last: false, transactionID: 1, payloadLength: 1 << 30) + [1, 2, 3],
                 logged: ["sent Data while a command was expected"]),
            Case(name: "a data phase longer than announced",
                 bytes: PTPIPPacket.commandRequest(dataPhase: .out, command: PTPCommand(.sendObject, transactionID: 1, parameters: [1000])).encoded()
                     + PTPIPPacket.startData(transactionID: 1, totalLength: 10).encoded()
                     + PTPIPPacket.endData(transactionID: 1, payload: Array(repeating: 1, count: 20)).encoded(),
                 logged: ["malformed packet", "sent 20 bytes after announcing 10"]),
            Case(name: "a data phase cut off",
                 bytes: PTPIPPacket.commandRequest(dataPhase: .out, command: PTPCommand(.sendObject, transactionID: 1, parameters: [1000])).encoded()
                     + PTPIPPacket.startData(transactionID: 1, totalLength: 100).encoded()
                     + Array(PTPIPPacket.endData(transactionID: 1, payload: Array(repeating: 1, count: 100)).encoded().prefix(60)),
                 logged: ["connection closed", "in the middle of a data packet (48 of 100 bytes)"]),
            Case(name: "a data phase for another transaction",
                 bytes: PTPIPPacket.commandRequest(dataPhase: .out, command: PTPCommand(.sendObject, transactionID: 1, parameters: [1000])).encoded()
                     + PTPIPPacket.startData(transactionID: 2, totalLength: 100).encoded(),
                 logged: ["Start_Data for transaction 2, expected 1"]),
        ]

        @Test(arguments: sessionCases)
        func hostileSession(_ hostile: Case) throws {
            let log = LogLines()
            let server = try startServer(log: log)
            defer { server.stop() }
            do {
                let client = try RawClient(port: server.port)
                try client.socket.send(requestBytes, timeout: 5)
                guard case .initCommandAck? = try client.stream.readControl(firstByteTimeout: 10) else {
                    Issue.record("no Init_Command_Ack")
                    return
                }
                try client.send(hostile.bytes)
                client.socket.shutdown()
            }
            #expect(log.waitFor(hostile.logged) != nil,
                    "log: \(log.lines.all)")
            expectGoodClientWorks(server)
        }
    }
}

// MARK: Hostile devices

/// A fake device on a loopback port that follows `script` on the command socket, after the handshake
/// when `handshake` is true. Stopped (and its thread joined) by `stop()`.
final class FakeDevice: @unchecked Sendable {
    let listener: Socket
    private var thread: JoinableThread?
    private let sockets = Locked<[Socket]>([])

    init(handshake: Bool, script: @escaping @Sendable (PacketStream) throws -> Void) throws {
        listener = try Socket.listen(host: "127.0.0.1", port: 0)
        thread = try JoinableThread(name: "fake-device") { [self] in
            do {
                guard let command = try listener.accept() else { return }
                keep(command)
                let stream = PacketStream(socket: command, timeout: 10)
                if handshake {
                    _ = try stream.readControl(firstByteTimeout: 10)
                    try stream.write(.initCommandAck(connectionNumber: 1, guid: Array(repeating: 9, count: 16),
                                                     name: "Fake", version: ptpipProtocolVersion))
                    guard let events = try listener.accept() else { return }
                    keep(events)
                    let eventStream = PacketStream(socket: events, timeout: 10)
                    _ = try eventStream.readControl(firstByteTimeout: 10)
                    try eventStream.write(.initEventAck)
                }
                try script(stream)
            } catch {
                // The initiator gave up on us: that is what these tests provoke.
            }
        }
    }

    var port: UInt16 { listener.localPort }

    private func keep(_ socket: Socket) { sockets.withLock { $0.append(socket) } }

    /// Closes what the script left open, as a device that hangs up.
    func hangUp() { sockets.withLock { kept in kept.forEach { $0.shutdown() } } }

    func stop() {
        listener.shutdown()
        hangUp()
        thread?.join()
        sockets.withLock { kept in kept.forEach { $0.close() } }
        listener.close()
    }
}

extension Network {
    @Suite(.tags(.port), .notInFastRun) struct HostileDevices {
        let fast = PTPIPTimeouts(connect: 5, read: 5)

        func connect(_ device: FakeDevice, timeouts: PTPIPTimeouts? = nil) throws -> PTPIPInitiator {
            try PTPIPInitiator.connect(host: "127.0.0.1", port: device.port, timeouts: timeouts ?? fast)
        }

        @Test func garbageInsteadOfAnAck() throws {
            let device = try FakeDevice(handshake: false) { stream in
                _ = try stream.readControl(firstByteTimeout: 10)
                try stream.socket.send(Array("220 ftp.example.com ready\r\n".utf8), timeout: 5)
            }
            defer { device.stop() }
            #expect {
                _ = try connect(device)
            } throws: { error in
                guard case PTPError.malformed(let malformation) = error else { return false }
                return malformation.defect == .unknownType(0x2E70_7466)
            }
        }

        @Test func initFailIsARefusal() throws {
            let device = try FakeDevice(handshake: false) { stream in
                _ = try stream.readControl(firstByteTimeout: 10)
                try stream.write(.initFail(reason: 2))
            }
            defer { device.stop() }
            #expect {
                _ = try connect(device)
            } throws: { error in
                (error as? PTPIPRefusal)?.reason == .busy
            }
        }

        @Test func hangUpInsteadOfAnAck() throws {
            let device = try FakeDevice(handshake: false) { stream in
                _ = try stream.readControl(firstByteTimeout: 10)
                stream.socket.shutdown()
            }
            defer { device.stop() }
            #expect {
                _ = try connect(device)
            } throws: { error in
                guard case PTPError.connectionClosed(.hungUpInsteadOfAnswering(_, request: "Init_Command_Request")) = error else { return false }
                return true
            }
        }

        @Test func silentDeviceTimesOut() throws {
            let device = try FakeDevice(handshake: true) { stream in
                _ = try stream.readControl(firstByteTimeout: 10)
                _ = try stream.read(firstByteTimeout: 10)  // silent until the initiator hangs up
            }
            defer { device.stop() }
            let initiator = try connect(device, timeouts: PTPIPTimeouts(connect: 5, read: 0.3))
            defer { initiator.close() }
            #expect {
                _ = try initiator.transact(PTPCommand(.getDeviceInfo, transactionID: 0), dataOut: nil, dataIn: BufferSink())
            } throws: { error in
                guard case PTPError.timeout(let wait) = error else { return false }
                return wait.awaited == .firstByte(purpose: nil) && wait.seconds == 0.3
            }
        }

        /// After the handshake and the command: what the device answers, and what the initiator must throw.
        struct Answer: Sendable, CustomTestStringConvertible {
            var name: String
            var bytes: [UInt8]
            var check: @Sendable (PTPError) -> Bool
            var testDescription: String { name }
        }

        static let answers: [Answer] = [
            Answer(name: "garbage", bytes: Array(repeating: 0x5A, count: 64)) {
                if case .malformed(let malformation) = $0 { malformation.defect == .unknownType(0x5A5A_5A5A) } else { false }
            },
            Answer(name: "a lying length", bytes: [0xFF, 0xFF, 0xFF, 0x7F, 7, 0, 0, 0]) {
                if case .malformed(let malformation) = $0 {
                    malformation.defect == .longerThanAllowed(length: 0x7FFF_FFFF, limit: 65536)
                } else { false }
            },
            Answer(name: "more data than announced",
                   bytes: PTPIPPacket.startData(transactionID: 0, totalLength: 10).encoded()
                       + PTPIPPacket.endData(transactionID: 0, payload: Array(repeating: 1, count: 20)).encoded()) {
                if case .malformed(let malformation) = $0 {
                    malformation.defect == .overrun(sent: 20, announced: 10) && malformation.operation == .getDeviceInfo
                } else { false }
            },
            Answer(name: "a response to another transaction",
                   bytes: PTPIPPacket.commandResponse(PTPResponse(.ok, transactionID: 5)).encoded()) {
                if case .protocolViolation(let violation) = $0 {
                    violation.breach == .wrongTransaction(packet: "a response", found: 5, expected: 0)
                } else { false }
            },
            Answer(name: "data without Start_Data",
                   bytes: PTPIPPacket.data(transactionID: 0, payload: [1, 2]).encoded()) {
                if case .protocolViolation(let violation) = $0 { violation.breach == .dataBeforeItsStart } else { false }
            },
            Answer(name: "a hang-up in the middle of the data",
                   bytes: PTPIPPacket.startData(transactionID: 0, totalLength: 100).encoded()
                       + Array(PTPIPPacket.endData(transactionID: 0, payload: Array(repeating: 1, count: 100)).encoded().prefix(50))) {
                if case .connectionClosed(.cutShort(_, .packet("data", _, expected: 100))) = $0 { true } else { false }
            },
            Answer(name: "an init packet",
                   bytes: PTPIPPacket.initEventAck.encoded()) {
                if case .protocolViolation(let violation) = $0 {
                    violation.breach == .unexpected(sent: "Init_Event_Ack", expected: .transactionContinuation)
                } else { false }
            },
        ]

        @Test(arguments: answers)
        func hostileAnswer(_ answer: Answer) throws {
            let device = try FakeDevice(handshake: true) { stream in
                _ = try stream.readControl(firstByteTimeout: 10)
                try stream.socket.send(answer.bytes, timeout: 5)
                stream.socket.shutdown()
            }
            defer { device.stop() }
            let initiator = try connect(device)
            defer { initiator.close() }
            let sink = BufferSink()
            #expect {
                _ = try initiator.transact(PTPCommand(.getDeviceInfo, transactionID: 0), dataOut: nil, dataIn: sink)
            } throws: { error in
                guard let error = error as? PTPError else { return false }
                return answer.check(error)
            }
            // The stream is out of step: the initiator says so instead of misreading what follows.
            #expect {
                _ = try initiator.transact(PTPCommand(.getDeviceInfo, transactionID: 1), dataOut: nil, dataIn: sink)
            } throws: { error in
                guard case PTPError.connectionClosed(.unusable("PTP/IP", _, _)) = error else { return false }
                return true
            }
        }

        @Test func shortDataWithOKIsAnError() throws {
            let device = try FakeDevice(handshake: true) { stream in
                _ = try stream.readControl(firstByteTimeout: 10)
                try stream.socket.send(
                    PTPIPPacket.startData(transactionID: 0, totalLength: 10).encoded()
                        + PTPIPPacket.endData(transactionID: 0, payload: [1, 2, 3]).encoded()
                        + PTPIPPacket.commandResponse(PTPResponse(.ok, transactionID: 0)).encoded(), timeout: 5)
                _ = try stream.read(firstByteTimeout: 10)
            }
            defer { device.stop() }
            let initiator = try connect(device)
            defer { initiator.close() }
            #expect {
                _ = try initiator.transact(PTPCommand(.getDeviceInfo, transactionID: 0), dataOut: nil, dataIn: BufferSink())
            } throws: { error in
                guard case PTPError.protocolViolation(let violation) = error else { return false }
                return violation.breach == .dataPhaseEnded(received: 3, expected: 10)
            }
        }
    }
}

extension Network {
    /// A client that opens connections without end is refused past the limit; the server goes on serving.
    @Suite(.tags(.port), .notInFastRun) struct ConnectionLimit {
        @Test func connectionsPastTheLimitAreClosedAtOnceAndLogged() throws {
            let log = LogLines()
            let server = PTPIPServer(
                host: "127.0.0.1", port: 0, name: "Test Camera",
                timeouts: PTPIPTimeouts(connect: 5, read: 10, handshake: 5), maximumConnections: 2, log: log.sink,
                handler: TestDevice.handler())
            try server.start()
            defer { server.stop() }
            var idle: [RawClient] = [try RawClient(port: server.port), try RawClient(port: server.port)]
            #expect(throws: (any Error).self) { _ = try connectInitiator(to: server, name: "one-too-many") }
            #expect(log.waitFor("refused", "2 connections already open") != nil)
            // The idle ones go away; a well-behaved client is served again once their sockets are seen off.
            for client in idle { client.socket.close() }
            idle.removeAll()
            var served = false
            let deadline = Date(timeIntervalSinceNow: 10)
            while !served && Date() < deadline {
                if let initiator = try? connectInitiator(to: server) {
                    let session = PTPSession(transport: initiator)
                    try session.open()
                    session.close()
                    served = true
                }
            }
            #expect(served)
        }
    }
}
