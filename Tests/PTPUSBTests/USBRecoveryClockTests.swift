import Failures
import Foundation
import POSIX
import PTP
import TestSupport
import Testing

@testable import PTPUSB

/// The recovery loops' bounds on an injected clock: how long a busy device is waited for after a Cancel is
/// time the test drives, not a race between the loop and the wall clock.
struct USBRecoveryClockTests {
    @Test func aDeviceBusyForEverAfterCancelIsAskedUntilTheRecoveryTimeIsUp() throws {
        let device = FakePTPDevice()
        device.script = { _ in [] }  // never answers: the transaction times out and is cancelled
        device.status = USBDeviceStatus(code: .deviceBusy)
        let clock = ManualWaitClock()
        let transport = device.transport(timeouts: USBTimeouts(transfer: 0.2, control: 0.2, recovery: 0.5), clock: clock)
        defer { transport.close() }
        let started = clock.now()
        #expect {
            try transport.transact(PTPCommand(.getObject, transactionID: 1), dataOut: nil, dataIn: nil)
        } throws: { error in
            error.failureCategory == .timedOut
        }
        #expect(device.cancelledTransactions == [1])
        // 0.5 s of recovery in pauses of 0.02 s: 25 tries (26 when the sum of the pauses falls just short).
        #expect((25...26).contains(clock.pauseCount), "\(clock.pauseCount) pauses")
        #expect(device.statusRequestCount == clock.pauseCount)
        #expect(clock.now() - started >= 0.5)
    }
}
