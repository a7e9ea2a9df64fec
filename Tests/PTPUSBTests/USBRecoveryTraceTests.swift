import Foundation
import PTP
import TestSupport
import Testing

@testable import Connectors
@testable import PTPUSB

/// `--debug-ptp` over USB: the open recovery's steps are notes in the trace, beside the containers, so a
/// trace of a camera left mid-transfer shows what was done to bring it back.
@Suite("USB recovery steps in the PTP trace")
struct USBRecoveryTraceTests {
    @Test func theRecoveryStepsAreWrittenToTheTrace() throws {
        let device = FakePTPDevice()
        device.status = nil  // as QEMU: Get Device Status stalls the control pipe
        device.stuck = .untilCancel
        device.script = { request in
            request.command.code == .getDeviceInfo ? [.data(pattern(300, seed: 3)), .response(.ok)] : [.response(.ok)]
        }
        let usb = device.transport(
            timeouts: USBTimeouts(transfer: 0.5, control: 0.2, recovery: 0.3), recoversFirstCommand: true)
        let lines = LockedBox<[String]>([])
        var options = CameraConnector.Options()
        options.trace = PTPTrace(redact: false) { line in lines.mutate { $0.append(line) } }
        let transport = CameraConnector.sessionTransport(usb, options: options)
        defer { transport.close() }

        let response = try transport.transact(
            PTPCommand(.getDeviceInfo, transactionID: 0), dataOut: nil, dataIn: RecordingSink())
        #expect(response.code == .ok)
        let trace = lines.value
        for step in [
            "# usb: Get Device Status: refused (LIBUSB_ERROR_PIPE)", "# usb: Cancel (transaction 0xFFFFFFFF",
            "# usb: drained bulk-in", "# usb: clear-halt bulk-in: done",
            "# usb: recovered: GetDeviceInfo answered OK after Cancel",
        ] {
            #expect(trace.contains { $0.hasPrefix(step) }, "\(step) not in \(trace)")
        }
        // Between the command they held up and its response, as they happened.
        let command = try #require(trace.firstIndex { $0.contains("> command") && $0.contains("GetDeviceInfo") })
        let firstNote = try #require(trace.firstIndex { $0.hasPrefix("# usb:") })
        let answer = try #require(trace.firstIndex { $0.contains("< response") && $0.contains("OK") })
        #expect(command < firstNote && firstNote < answer, "\(trace)")
    }
}
