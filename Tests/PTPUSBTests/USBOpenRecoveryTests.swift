import Foundation
import PTP
import TestSupport
import Testing

@testable import PTPUSB

/// The open recovery: a device that another program left mid-transaction refuses the first command of a
/// new session, and the transport runs the still-image class recovery (Get Device Status, Cancel, drain,
/// clear-halt, then a port reset) before trying that command again.
@Suite("USB open recovery over an in-memory bus")
struct USBOpenRecoveryTests {
    static let deviceInfoPayload = pattern(300, seed: 3)

    /// A device whose commands answer a small data phase and OK, and a transport that recovers its first
    /// command, with the recovery's log kept.
    static func make(stuck: FakePTPDevice.Stuck?, statusRefused: Bool = true) -> (FakePTPDevice, USBTransport, LockedBox<[String]>) {
        let device = FakePTPDevice()
        if statusRefused { device.status = nil }  // as QEMU: Get Device Status stalls the control pipe
        device.stuck = stuck
        device.script = { request in
            request.command.code == .getDeviceInfo ? [.data(deviceInfoPayload), .response(.ok)] : [.response(.ok)]
        }
        let transport = device.transport(
            timeouts: USBTimeouts(transfer: 0.5, control: 0.2, recovery: 0.3), recoversFirstCommand: true)
        let log = LockedBox<[String]>([])
        transport.setLog { line in log.mutate { $0.append(line) } }
        return (device, transport, log)
    }

    static func getDeviceInfo(_ transport: USBTransport, sink: RecordingSink = RecordingSink()) throws -> PTPResponse {
        try transport.transact(PTPCommand(.getDeviceInfo, transactionID: 0), dataOut: nil, dataIn: sink)
    }

    @Test func aDeviceStuckUntilCancelAnswersAfterTheCancelWithoutAPortReset() throws {
        let (device, transport, log) = Self.make(stuck: .untilCancel)
        defer { transport.close() }
        let sink = RecordingSink()
        #expect(try Self.getDeviceInfo(transport, sink: sink).code == .ok)
        #expect(sink.bytes == Self.deviceInfoPayload)
        #expect(device.cancelledTransactions.contains(USBTransport.unknownTransactionID))
        #expect(device.pipe.portResets == 0)
        let lines = log.value
        for step in ["Get Device Status: refused (LIBUSB_ERROR_PIPE)", "Cancel (transaction 0xFFFFFFFF", "drained bulk-in",
            "clear-halt bulk-in: done", "clear-halt bulk-out: done", "recovered: GetDeviceInfo answered OK after Cancel"]
        {
            #expect(lines.contains { $0.contains(step) }, "\(step) not in \(lines)")
        }
        // The session goes on.
        #expect(try transport.transact(PTPCommand(.openSession, transactionID: 0, parameters: [1]), dataOut: nil, dataIn: nil).code == .ok)
    }

    @Test func strayDataFromTheAbandonedTransactionIsCancelledByItsOwnId() throws {
        let (device, transport, log) = Self.make(stuck: nil, statusRefused: false)
        defer { transport.close() }
        // What the killed program's GetPartialObject (transaction 41) had not read yet.
        let stale = USBContainer.dataHeader(code: OperationCode.getPartialObject.rawValue, transactionID: 41, payload: 100_000)
        device.pipe.deviceSendPackets([stale + pattern(500)])
        let sink = RecordingSink()
        #expect(try Self.getDeviceInfo(transport, sink: sink).code == .ok)
        #expect(sink.bytes == Self.deviceInfoPayload, "none of the stale data reached the caller")
        #expect(device.cancelledTransactions.first == 41)
        #expect(device.pipe.portResets == 0)
        #expect(log.value.contains { $0.contains("Get Device Status: OK") })
        #expect(log.value.contains { $0.contains("Cancel (transaction 41") && $0.contains("accepted") })
    }

    @Test func aDeviceStuckUntilResetAnswersAfterThePortReset() throws {
        let (device, transport, log) = Self.make(stuck: .untilReset)
        defer { transport.close() }
        let sink = RecordingSink()
        #expect(try Self.getDeviceInfo(transport, sink: sink).code == .ok)
        #expect(sink.bytes == Self.deviceInfoPayload)
        #expect(device.pipe.portResets == 1)
        #expect(!device.cancelledTransactions.isEmpty, "Cancel came first")
        let lines = log.value
        #expect(lines.contains { $0.contains("GetDeviceInfo failed again") })
        #expect(lines.contains { $0.contains("port reset done") })
        #expect(lines.contains { $0.contains("recovered: GetDeviceInfo answered OK after the port reset") })
        #expect(try transport.transact(PTPCommand(.getStorageIDs, transactionID: 1), dataOut: nil, dataIn: nil).code == .ok)
    }

    @Test func aDeviceStuckForEverIsAClearErrorNotAHang() throws {
        let (device, transport, log) = Self.make(stuck: .forever)
        defer { transport.close() }
        #expect {
            try Self.getDeviceInfo(transport)
        } throws: { error in
            guard case PTPError.unrecovered(.protocolViolation(let violation), portReset: .done) = error else { return false }
            return violation.breach == .stalledAfterClearHalt(transfer: "GetDeviceInfo", code: "LIBUSB_ERROR_PIPE")
        }
        #expect(device.pipe.portResets == 1, "one port reset, not a loop")
        #expect(device.received.isEmpty, "no command got through")
        #expect(log.value.last?.contains("giving up") == true, "\(log.value)")
    }

    @Test func laterFailuresInTheSessionDoNotResetThePort() throws {
        let (device, transport, _) = Self.make(stuck: nil)
        defer { transport.close() }
        #expect(try Self.getDeviceInfo(transport).code == .ok)
        device.stuck = .forever
        #expect {
            try transport.transact(PTPCommand(.getStorageIDs, transactionID: 1), dataOut: nil, dataIn: nil)
        } throws: { error in
            guard case PTPError.protocolViolation(let violation) = error else { return false }
            // as it came: not .unrecovered
            return violation.breach == .stalledAfterClearHalt(transfer: "GetStorageIDs", code: "LIBUSB_ERROR_PIPE")
        }
        #expect(device.pipe.portResets == 0)
    }

    @Test func aFirstCommandWhoseDataReachedTheCallerIsNotSentAgain() throws {
        let (device, transport, _) = Self.make(stuck: nil, statusRefused: false)
        defer { transport.close() }
        // The data phase arrives, then a response for someone else's transaction.
        device.script = { request in
            [.data(pattern(50)), .raw(FakePTPDevice.response(.ok, transactionID: request.command.transactionID + 9))]
        }
        let sink = RecordingSink()
        #expect(throws: PTPError.self) { try Self.getDeviceInfo(transport, sink: sink) }
        #expect(sink.bytes == pattern(50), "delivered once")
        #expect(device.received.count == 1)
        #expect(device.pipe.portResets == 0)
    }
}
