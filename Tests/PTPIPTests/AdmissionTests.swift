import Foundation
import POSIX
import PTP
@testable import PTPIP
import TestSupport
import Testing

extension Network {
    /// Who a server lets in (its gate, decided on the initiator's GUID before Init_Command_Ack), how a
    /// refusal reaches the initiator (Init_Fail's reason, as data), how an initiator waits for a camera that
    /// asks its user first, and the limit on failed handshakes per address.
    @Suite(.tags(.port), .notInFastRun) struct Admission {
        private func server(
            log: LogLines, clock: any WaitClock = MonotonicClock(), failures: Int? = nil, gate: @escaping PTPIPServer.Gate
        ) throws -> PTPIPServer {
            let server = PTPIPServer(
                host: "127.0.0.1", port: 0, name: "Gated Camera",
                timeouts: PTPIPTimeouts(connect: 5, read: 10, handshake: 5, clock: clock),
                maximumFailuresPerMinute: failures, log: log.sink, gate: gate, handler: TestDevice.handler())
            try server.start()
            return server
        }

        private let allowed: [UInt8] = Array(0x10...0x1F)
        private let stranger: [UInt8] = Array(0xA0...0xAF)

        @Test func theAllowedGUIDIsLetInAndAnotherIsRejected() throws {
            let log = LogLines()
            let allowed = self.allowed
            let server = try server(log: log) { $0.guid == allowed ? .admit : .refuse(.rejectedInitiator) }
            defer { server.stop() }

            let initiator = try PTPIPInitiator.connect(host: "127.0.0.1", port: server.port, name: "friend", guid: allowed)
            initiator.close()
            #expect {
                _ = try PTPIPInitiator.connect(host: "127.0.0.1", port: server.port, name: "stranger", guid: stranger)
            } throws: { error in
                (error as? PTPIPRefusal)?.reason == .rejectedInitiator
            }
            // The log names whom it refused, by GUID.
            #expect(log.waitFor("refused 'stranger'", GUIDText.format(stranger), "rejected initiator") != nil)
        }

        @Test func busyAndUnspecifiedArriveAsTheirReasons() throws {
            for reason in [InitFailReason.busy, .unspecified, InitFailReason(rawValue: 0x2001)] {
                let log = LogLines()
                let server = try server(log: log) { _ in .refuse(reason) }
                defer { server.stop() }
                #expect {
                    _ = try PTPIPInitiator.connect(host: "127.0.0.1", port: server.port)
                } throws: { error in
                    (error as? PTPIPRefusal)?.reason == reason
                }
            }
        }

        /// A camera that asks its user (the gate holds the answer back until the initiator said it waits):
        /// the initiator is told once it has waited `notice`, and is let in when the answer comes.
        @Test func aFirstContactWaitsForTheConfirmationAndSaysSo() throws {
            let log = LogLines()
            let waiting = Mailbox<Double>()
            let asked = Mailbox<String>()
            let server = try server(log: log) { peer in
                asked.put(peer.name)
                // The confirmation comes only after the initiator has said it is waiting (bounded).
                _ = waiting.take(timeout: 30) { _ in true }.map { waiting.put($0) }
                return .admit
            }
            defer { server.stop() }
            let wait = FirstContactWait(seconds: 60, notice: 0.05) { waiting.put($0) }
            let initiator = try PTPIPInitiator.connect(
                host: "127.0.0.1", port: server.port, name: "first-timer", timeouts: PTPIPTimeouts(connect: 5, read: 10),
                firstContact: wait)
            defer { initiator.close() }
            #expect(asked.take(timeout: 1) == "first-timer")
            #expect(waiting.all == [60])
        }

        /// Without a first contact, the wait is the ordinary read timeout: a camera that holds its answer
        /// back is the step unanswered.
        @Test func aKnownCameraWaitsTheOrdinaryTime() throws {
            let release = Mailbox<Bool>()
            let server = try server(log: LogLines()) { _ in
                _ = release.take(timeout: 30)
                return .admit
            }
            defer {
                release.put(true)
                server.stop()
            }
            #expect {
                _ = try PTPIPInitiator.connect(host: "127.0.0.1", port: server.port, timeouts: PTPIPTimeouts(connect: 5, read: 0.2))
            } throws: { error in
                guard case PTPError.unanswered(let step) = error else { return false }
                return step.awaited == "\(PTPIPPacketType.initCommandAck)" && step.seconds == 0.2
            }
        }

        /// An address that fails its handshake too often is shut out for the rest of the minute, said once.
        @Test func repeatedFailuresFromOneAddressAreShutOutForAMinute() throws {
            let log = LogLines()
            let clock = ManualWaitClock()
            let allowed = self.allowed
            let server = try server(log: log, clock: clock, failures: 2) { $0.guid == allowed ? .admit : .refuse(.rejectedInitiator) }
            defer { server.stop() }
            for _ in 0..<2 {
                #expect(throws: PTPIPRefusal.self) {
                    _ = try PTPIPInitiator.connect(host: "127.0.0.1", port: server.port, guid: stranger)
                }
            }
            // Even the allowed GUID, from that address, is closed unread now.
            #expect {
                _ = try PTPIPInitiator.connect(host: "127.0.0.1", port: server.port, guid: allowed)
            } throws: { error in
                error is PTPError  // closed (or reset) before any answer
            }
            #expect(log.waitFor("127.0.0.1: 2 failed handshakes within a minute") != nil)
            clock.advance(by: 61)
            let initiator = try PTPIPInitiator.connect(host: "127.0.0.1", port: server.port, guid: allowed)
            initiator.close()
        }
    }
}
