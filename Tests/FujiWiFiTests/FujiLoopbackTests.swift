import Foundation
@testable import FujiWiFi
import POSIX
import PTP
import TestSupport
import Testing

extension FujiNetwork {
    /// Our initiator against our server over loopback, ports chosen at run time.
    @Suite(.tags(.process, .port), .notInFastRun) struct Loopback {
        func startServer(received: Mailbox<[UInt8]> = Mailbox(), log: Mailbox<String> = Mailbox()) throws -> FujiServer {
            let server = FujiServer(
                port: 0, eventPort: 0, name: "X-T20", timeouts: FujiTimeouts(connect: 5, read: 10, handshake: 2),
                log: { log.put($0) }, handler: loopbackHandler(received: received))
            try server.start()
            return server
        }

        func connect(_ server: FujiServer, steps: Mailbox<FujiHandshakeStep>? = nil) throws -> FujiInitiator {
            try FujiInitiator.connect(
                host: "127.0.0.1", port: server.port, eventPort: server.eventPort, name: "loopback",
                timeouts: FujiTimeouts(connect: 5, read: 10)
            ) { steps?.put($0) }
        }

        /// A data phase of several MiB arrives byte-identical in bounded chunks; one going out arrives whole.
        @Test func dataBothWays() throws {
            let received = Mailbox<[UInt8]>()
            let server = try startServer(received: received)
            defer { server.stop() }
            let initiator = try connect(server)
            defer { initiator.close() }
            #expect(initiator.deviceName == "X-T20")
            let sink = CollectingSink()
            let size = 3 << 20 | 12345
            let response = try initiator.transact(PTPCommand(.getObject, transactionID: 1, parameters: [UInt32(size)]), dataOut: nil, dataIn: sink)
            #expect(response.code == .ok)
            #expect(sink.announced == UInt64(size))
            #expect(sink.bytes == pattern(size))
            #expect(sink.writes >= 4)  // never more than 1 MiB at once
            let out = try initiator.transact(
                PTPCommand(.setDevicePropValue, transactionID: 2, parameters: [0xDF01]), dataOut: BufferSource([2, 0]), dataIn: nil)
            #expect(out.parameters == [2])
            #expect(received.take(timeout: 5) == [2, 0])
        }

        /// The event port takes no host before InitiateOpenCapture; after it, our initiator connects it by
        /// itself and the camera's events arrive.
        @Test func eventsFlowOnlyOnceCaptureModeIsOpen() throws {
            let log = Mailbox<String>()
            let server = try startServer(log: log)
            defer { server.stop() }
            // Before: a connection to the event port is closed at once.
            let early = try Socket.connect(host: "127.0.0.1", port: server.eventPort, timeout: 5)
            var byte: [UInt8] = [0]
            #expect(try byte.withUnsafeMutableBytes { try early.receive(into: $0, .eachWait(5)) } == 0)
            early.close()
            #expect(log.take(timeout: 5) { $0.contains("before InitiateOpenCapture") } != nil)

            let steps = Mailbox<FujiHandshakeStep>()
            let initiator = try connect(server, steps: steps)
            defer { initiator.close() }
            let events = Mailbox<PTPEvent>()
            initiator.setEventHandler { events.put($0) }
            #expect(!initiator.hasEventSocket)
            _ = try initiator.transact(PTPCommand(.openSession, transactionID: 0, parameters: [1]), dataOut: nil, dataIn: nil)
            #expect(!initiator.hasEventSocket)
            let opened = try initiator.transact(PTPCommand(.initiateOpenCapture, transactionID: 1, parameters: [0, 0]), dataOut: nil, dataIn: nil)
            #expect(opened.code == .ok)
            #expect(initiator.hasEventSocket)
            #expect(steps.take(timeout: 5) { if case .eventSocketConnected = $0 { true } else { false } } != nil)
            let event = events.take(timeout: 10)
            #expect(event == PTPEvent(.objectAdded, transactionID: 1, parameters: [7]))
        }

        /// Without an event port (nil), capture mode still works and says none was connected.
        @Test func noEventPortIsNotAnError() throws {
            let server = try startServer()
            defer { server.stop() }
            let initiator = try FujiInitiator.connect(
                host: "127.0.0.1", port: server.port, eventPort: nil, name: "x", timeouts: FujiTimeouts(connect: 5, read: 10))
            defer { initiator.close() }
            #expect(try initiator.transact(PTPCommand(.initiateOpenCapture, transactionID: 1), dataOut: nil, dataIn: nil).code == .ok)
            #expect(!initiator.hasEventSocket)
        }

        /// libgphoto2 sends its init request twice before its first command: both are answered.
        @Test func aRepeatedInitIsAnsweredAgain() throws {
            let server = try startServer()
            defer { server.stop() }
            let socket = try Socket.connect(host: "127.0.0.1", port: server.port, timeout: 5)
            defer { socket.close() }
            let request = FujiHandshake.request(guid: Array(repeating: 1, count: 16), name: "gphoto2")
            try socket.send(request + request, .eachWait(5))
            let first = try socket.read(FujiHandshake.acknowledgeLength)
            let second = try socket.read(FujiHandshake.acknowledgeLength)
            #expect(first == second)
            #expect(try FujiHandshake.decodeAnswer(second) == .accepted(guid: FujiServer.defaultGUID, name: "X-T20"))
            try socket.send(ContainerCodec.command(PTPCommand(.openSession, transactionID: 0, parameters: [1])), .eachWait(5))
            let (header, _) = try socket.readContainer()
            #expect(header.kind == .response && header.code == ResponseCode.ok.rawValue)
        }

        /// A PTP/IP initiator's request gets no answer (no Init_Fail, which a PTP/IP client reads as a refusal
        /// of this computer): the connection is closed, as a body closes it, and the server keeps serving.
        @Test func aPTPIPRequestIsClosedWithoutAnAnswer() throws {
            let log = Mailbox<String>()
            let server = try startServer(log: log)
            defer { server.stop() }
            let socket = try Socket.connect(host: "127.0.0.1", port: server.port, timeout: 5)
            var request: [UInt8] = [0, 0, 0, 0, 1, 0, 0, 0] + Array(repeating: 7, count: 16) + [0x68, 0, 0, 0, 0, 0, 1, 0]
            request[0] = UInt8(request.count)
            try socket.send(request, .eachWait(5))
            var answer = [UInt8](repeating: 0, count: 12)
            let got = try answer.withUnsafeMutableBytes { try socket.receive(into: $0, .eachWait(10)) }
            #expect(got == 0, "the server answered \(answer.prefix(got))")
            socket.close()
            #expect(log.take(timeout: 5) { $0.contains("dropped") } != nil)
            let initiator = try connect(server)
            initiator.close()
        }

        /// Hostile hosts: a lying length, silence, half a request; none stops the server.
        @Test func hostileHostsAreDropped() throws {
            let log = Mailbox<String>()
            let server = try startServer(log: log)
            defer { server.stop() }
            for bytes: [UInt8] in [[0xF0, 0xFF, 0xFF, 0xFF, 1, 0, 0, 0], Array(FujiHandshake.request(guid: [], name: "h").prefix(40)), []] {
                let socket = try Socket.connect(host: "127.0.0.1", port: server.port, timeout: 5)
                try socket.send(bytes, .eachWait(5))
                socket.shutdownWrite()
                #expect(log.take(timeout: 5) != nil)
                socket.close()
            }
            let initiator = try connect(server)
            initiator.close()
        }

        /// The server stops with a host connected, and the host sees the connection end, by case.
        @Test func stoppingEndsConnections() throws {
            let server = try startServer()
            let initiator = try connect(server)
            defer { initiator.close() }
            server.stop()
            #expect {
                _ = try initiator.transact(PTPCommand(.getDeviceInfo, transactionID: 1), dataOut: nil, dataIn: nil)
            } throws: { error in
                if case PTPError.connectionClosed = error { return true }
                return false
            }
        }
    }
}
