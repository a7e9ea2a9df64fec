import Foundation
import POSIX
import PTP
import TestSupport
import Testing

@testable import PTPIP

extension Network {
    /// `--debug-ptp` sees the PTP/IP handshake (each TCP connection, each Init packet both ways), and an
    /// opening that gets no answer says which packet it waited for, after which, from whom (issue 26).
    @Suite(.tags(.port), .notInFastRun) struct HandshakeTraceTests {
        /// A trace kept in memory, a line at a time.
        static func memoryTrace(redact: Bool = false) -> (PTPTrace, Mailbox<String>) {
            let lines = Mailbox<String>()
            return (PTPTrace(redact: redact) { lines.put($0) }, lines)
        }

        @Test func theWholeHandshakeIsRecordedInOrder() throws {
            let server = try startServer()
            defer { server.stop() }
            let (trace, lines) = Self.memoryTrace()
            let initiator = try PTPIPInitiator.connect(
                host: "127.0.0.1", port: server.port, name: "test-host", timeouts: PTPIPTimeouts(connect: 5, read: 10),
                trace: trace)
            initiator.close()
            let peer = "127.0.0.1:\(server.port)"
            let guid = PTPIPInitiator.processGUID.map { String(format: "%02X", $0) }.joined()
            for wanted in [
                "> connect  TCP to \(peer) (command socket)",
                "> init     Init_Command_Request to \(peer): guid \(guid) name \"test-host\" version 1.0",
                "< init     Init_Command_Ack from \(peer): connection ",
                "> connect  TCP to \(peer) (event socket)",
                "> init     Init_Event_Request to \(peer): connection ",
                "< init     Init_Event_Ack from \(peer)",
            ] {
                #expect(lines.take(timeout: 5) { $0.contains(wanted) } != nil, "no line with \(wanted)")
            }
        }

        /// The kernel takes the TCP connection for a listener nobody accepts from: nothing ever answers.
        @Test func noInitCommandAckIsTheStepUnanswered() throws {
            let listener = try Socket.listen(host: "127.0.0.1", port: 0)
            defer { listener.close() }
            let (trace, lines) = Self.memoryTrace()
            let peer = "127.0.0.1:\(listener.localPort)"
            #expect {
                _ = try PTPIPInitiator.connect(
                    host: "127.0.0.1", port: listener.localPort, timeouts: PTPIPTimeouts(connect: 5, read: 0.3), trace: trace)
            } throws: { error in
                error as? PTPError == .unanswered(
                    UnansweredStep(awaited: "Init_Command_Ack", sent: "Init_Command_Request", peer: peer, seconds: 0.3))
            }
            #expect(lines.take(timeout: 5) { $0.contains("> init     Init_Command_Request to \(peer)") } != nil)
            #expect(lines.take(timeout: 5) { $0.contains("! error    no Init_Command_Ack within 0.3 s after Init_Command_Request") } != nil)
        }

        /// A device that acknowledges the command socket and then never answers on the event socket.
        @Test func noInitEventAckIsTheStepUnanswered() throws {
            let listener = try Socket.listen(host: "127.0.0.1", port: 0)
            let device = try JoinableThread(name: "half-device") {
                guard let command = try? listener.accept() else { return }
                defer { command.close() }
                let stream = PacketStream(socket: command, timeout: 10)
                _ = try? stream.readControl(firstByteTimeout: 10)
                try? stream.write(.initCommandAck(connectionNumber: 7, guid: Array(repeating: 1, count: 16), name: "Half", version: nil))
                guard let events = try? listener.accept() else { return }
                defer { events.close() }
                // Reads the Init_Event_Request and stays silent until the initiator hangs up.
                let eventStream = PacketStream(socket: events, timeout: 10)
                _ = try? eventStream.readControl(firstByteTimeout: 10)
                _ = try? eventStream.read(firstByteTimeout: 10)
            }
            defer {
                listener.shutdown()
                device.join()
                listener.close()
            }
            let (trace, lines) = Self.memoryTrace()
            let peer = "127.0.0.1:\(listener.localPort)"
            #expect {
                _ = try PTPIPInitiator.connect(
                    host: "127.0.0.1", port: listener.localPort, timeouts: PTPIPTimeouts(connect: 5, read: 0.3), trace: trace)
            } throws: { error in
                error as? PTPError == .unanswered(
                    UnansweredStep(awaited: "Init_Event_Ack", sent: "Init_Event_Request", peer: peer, seconds: 0.3))
            }
            #expect(lines.take(timeout: 5) { $0.contains("< init     Init_Command_Ack from \(peer): connection 7 guid 0101") } != nil)
            #expect(lines.take(timeout: 5) { $0.contains("> init     Init_Event_Request to \(peer): connection 7") } != nil)
        }
    }
}
