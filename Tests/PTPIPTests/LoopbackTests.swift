import Foundation
import POSIX
import PTP
@testable import PTPIP
import TestSupport
import Testing

extension Network {
    /// Our initiator against our server over loopback, with `TestDevice` answering.
    @Suite(.tags(.port), .notInFastRun) struct Loopback {
        @Test func sessionOpensReadsDataAndReceivesEvents() throws {
            let record = ResponderRecord()
            let server = try startServer(handler: TestDevice.handler(record: record))
            defer { server.stop() }
            let initiator = try connectInitiator(to: server, name: "loopback-initiator")
            let session = PTPSession(transport: initiator)
            defer { session.close() }

            #expect(initiator.deviceName == "Test Camera")
            #expect(initiator.deviceGUID == PTPIPServer.defaultGUID)
            try session.open()
            #expect(session.deviceInfo == TestDevice.deviceInfo)
            let peer = try #require(record.peers.first)
            #expect(peer.name == "loopback-initiator")
            #expect(peer.guid == PTPIPInitiator.processGUID)
            #expect(peer.protocolVersion == ptpipProtocolVersion)
            #expect(peer.address.hasPrefix("127.0.0.1:"))
            #expect(peer.connectionNumber == initiator.connectionNumber)

            // 5 MiB + 3 bytes: several Data packets and a short last one, byte-identical.
            let sink = BufferSink()
            try session.getObject(1, into: sink)
            #expect(sink.announcedLength == 5 << 20 + 3)
            #expect(sink.bytes.count == 5 << 20 + 3)
            #expect(sink.bytes == pattern(5 << 20 + 3))

            // An empty data phase.
            let empty = BufferSink()
            try session.getObject(2, into: empty)
            #expect(empty.bytes.isEmpty)
            #expect(empty.announcedLength == 0)

            // The event arrives on the event socket.
            let events = Mailbox<PTPEvent>()
            session.setEventHandler { events.put($0) }
            try session.initiateCapture()
            let event = try #require(events.take())
            #expect(event.code == .objectAdded)
            #expect(event.parameters == [42])

            // A failure response is a typed error, and the connection goes on.
            expectResponse(.invalidObjectHandle, to: .getObject) {
                try session.getObject(99, into: BufferSink())
            }
            #expect(try session.getStorageIDs() == [])
        }

        @Test func hostToDeviceDataPhases() throws {
            let server = try startServer()
            defer { server.stop() }
            let session = PTPSession(transport: try connectInitiator(to: server))
            defer { session.close() }
            try session.open()

            // 3 MiB + 1: several packets, then the responder checks the pattern and answers with the count.
            let size = 3 << 20 + 1
            let response = try session.execute(.sendObject, [8 << 20], dataOut: PatternSource(length: UInt64(size)))
            #expect(response.parameters == [UInt32(size)])

            // An empty one.
            #expect(try session.execute(.sendObject, [8 << 20], dataOut: BufferSource([])).parameters == [0])

            // More than the responder's limit: it takes the rest, refuses, and the connection goes on.
            expectResponse(.objectTooLarge, to: .sendObject) {
                try session.execute(.sendObject, [1000], dataOut: PatternSource(length: 5000))
            }
            #expect(try session.execute(.sendObject, [1 << 20], dataOut: PatternSource(length: 10)).parameters == [10])
        }

        @Test func eventsSentBeforeTheEventSocketAreQueued() throws {
            let record = ResponderRecord()
            let server = try startServer(handler: TestDevice.handler(record: record, greet: true))
            defer { server.stop() }
            // A client that opens its event socket only once the device has sent its greeting.
            let command = try RawClient(port: server.port)
            try command.stream.write(.initCommandRequest(guid: Array(repeating: 1, count: 16), name: "raw", version: ptpipProtocolVersion))
            guard case .initCommandAck(let number, _, let name, _)? = try command.stream.readControl(firstByteTimeout: 10)
            else { Issue.record("no Init_Command_Ack"); return }
            #expect(name == "Test Camera")
            #expect(record.greeted.take() != nil)

            let events = try RawClient(port: server.port)
            try events.stream.write(.initEventRequest(connectionNumber: number))
            #expect(try events.stream.readControl(firstByteTimeout: 10) == .initEventAck)
            #expect(try events.stream.readControl(firstByteTimeout: 10) == .event(PTPEvent(.deviceInfoChanged, parameters: [7])))
            // And later events follow on the same socket.
            try command.stream.write(.commandRequest(dataPhase: .noneOrIn, command: PTPCommand(.initiateCapture, transactionID: 1)))
            #expect(try command.stream.readControl(firstByteTimeout: 10) == .commandResponse(PTPResponse(.ok, transactionID: 1)))
            #expect(try events.stream.readControl(firstByteTimeout: 10) == .event(PTPEvent(.objectAdded, transactionID: 1, parameters: [42])))
        }

        @Test func pingBothWays() throws {
            let server = try startServer()
            defer { server.stop() }
            let initiator = try connectInitiator(to: server)
            let session = PTPSession(transport: initiator)
            defer { session.close() }
            try initiator.ping(timeout: 10)
            try initiator.ping(timeout: 10)
            // The responder pings us during a transaction; our event thread answers.
            try session.execute(TestDevice.pingBack)
        }

        @Test func cancelledDownloadStopsTheResponderAndKeepsTheConnection() throws {
            let record = ResponderRecord()
            let server = try startServer(handler: TestDevice.handler(record: record))
            defer { server.stop() }
            let session = PTPSession(transport: try connectInitiator(to: server))
            defer { session.close() }
            try session.open()

            let sink = CancellingSink()
            #expect(throws: CancellationError.self) { try session.getObject(3, into: sink) }
            #expect(sink.written > 0)
            // The stream is in step: the next transaction works.
            let again = BufferSink()
            try session.getObject(1, into: again)
            #expect(again.bytes.count == 5 << 20 + 3)
            // The responder (done with the first transaction, since it answered the second) saw our Cancel
            // and stopped sending its 256 MiB, answering TransactionCancelled.
            #expect(record.cancelledTransactions.count == 1)
        }

        @Test func unexpectedDataIsDrained() throws {
            let server = try startServer()
            defer { server.stop() }
            let initiator = try connectInitiator(to: server)
            defer { initiator.close() }
            // GetObject without a sink: the data phase is read and dropped.
            let response = try initiator.transact(
                PTPCommand(.getObject, transactionID: 1, parameters: [1]), dataOut: nil, dataIn: nil)
            #expect(response.code == .ok)
            let info = BufferSink()
            _ = try initiator.transact(PTPCommand(.getDeviceInfo, transactionID: 2), dataOut: nil, dataIn: info)
            #expect(try DeviceInfo(decoding: info.bytes) == TestDevice.deviceInfo)
        }

        @Test func closedInitiatorRefusesTransactions() throws {
            let server = try startServer()
            defer { server.stop() }
            let initiator = try connectInitiator(to: server)
            initiator.close()
            initiator.close()
            #expect(throws: PTPError.self) {
                _ = try initiator.transact(PTPCommand(.getDeviceInfo, transactionID: 0), dataOut: nil, dataIn: nil)
            }
        }

        @Test func connectToAClosedPortSaysSo() throws {
            // Listen, learn the port, stop: nothing listens there any more.
            let listener = try Socket.listen(host: "127.0.0.1", port: 0)
            let port = listener.localPort
            listener.close()
            #expect {
                _ = try PTPIPInitiator.connect(host: "127.0.0.1", port: port)
            } throws: { error in
                guard case PTPError.system(let failure) = error else { return false }
                return failure.call == .connect && failure.target == "127.0.0.1:\(port)" && failure.errno == ECONNREFUSED
            }
        }

        @Test func localhostIsAccepted() throws {
            let server = try startServer()
            defer { server.stop() }
            let initiator = try PTPIPInitiator.connect(host: "localhost", port: server.port)
            initiator.close()
        }

        @Test func stoppingTheServerEndsItsConnections() throws {
            let record = ResponderRecord()
            let server = try startServer(handler: TestDevice.handler(record: record))
            let initiator = try connectInitiator(to: server)
            defer { initiator.close() }
            let session = PTPSession(transport: initiator)
            try session.open()
            server.stop()
            #expect(record.finished.take() != nil)
            #expect(throws: PTPError.self) { try session.getStorageIDs() }
        }
    }
}

extension Network.Loopback {
    @Test func dataTheResponderDidNotTakeIsDrained() throws {
        // This responder answers SendObject without reading its data phase.
        let server = try startServer(handler: { connection, _ in
            while let incoming = try connection.receiveCommand() {
                try connection.sendResponse(PTPResponse(.storeFull, transactionID: incoming.command.transactionID))
            }
        })
        defer { server.stop() }
        let initiator = try connectInitiator(to: server)
        defer { initiator.close() }
        let first = try initiator.transact(
            PTPCommand(.sendObject, transactionID: 1), dataOut: PatternSource(length: 3 << 20), dataIn: nil)
        #expect(first.code == .storeFull)
        let second = try initiator.transact(PTPCommand(.getDeviceInfo, transactionID: 2), dataOut: nil, dataIn: nil)
        #expect(second == PTPResponse(.storeFull, transactionID: 2))
    }
}
