import Foundation
import POSIX
import PTP

/// What the transport does when the first command of a session stalls or answers out of step: the device
/// was left mid-transaction by a program that died (kill -9) or lost its cable, and may refuse every new
/// command until that transaction ends. The still-image class spec (PIMA 15740 annex D) and libgphoto2
/// get a device back this way, and so does this, in order, each step logged:
///
/// 1. Get Device Status (0x67): what the device says it is doing, and which endpoints it halted;
/// 2. the class Cancel request (0x64) for the abandoned transaction, when its id is known (the device sent
///    a container for a transaction that is not ours), and without it (0xFFFFFFFF) otherwise;
/// 3. waiting (bounded) while it reports busy, draining bulk-in, clearing the halts on both bulk pipes;
///    then the command is tried again;
/// 4. if it still fails: a USB port reset (libusb_reset_device), the interface claimed again, and the
///    command tried once more.
///
/// A device that fails after all of it is a clear error that says what was tried. Every step is bounded by
/// the transport's timeouts, so a device that stalls for ever never hangs the open.
extension USBTransport {
    /// The id sent in a Cancel when the abandoned transaction's id is unknown ("no particular one").
    static let unknownTransactionID: UInt32 = 0xFFFF_FFFF

    func recoverFirstCommand(
        _ command: PTPCommand, failure: ExchangeFailure, retry: () throws -> PTPResponse
    ) throws -> PTPResponse {
        let operation = "\(command.code)"
        log("\(operation), the first command of the session, failed: \(describe(failure, operation)); recovering")
        resetStillImageState()
        var last = failure
        do {
            log("trying \(operation) again")
            let response = try retry()
            log("recovered: \(operation) answered \(response.code) after Cancel and clear-halt")
            return response
        } catch let again as ExchangeFailure where again.leavesDeviceStuck {
            log("\(operation) failed again: \(describe(again, operation))")
            last = again
        }

        log("USB port reset (libusb_reset_device), then the interface claimed again")
        do {
            try pipe.resetPort()
            inbound.discardBuffered()
            strayTransactionID = nil
            log("port reset done")
        } catch {
            log("port reset failed: \(describeUSB(error))")
            throw stillFailing(last, after: command, portReset: .failed(code: describeUSB(error)))
        }
        do {
            log("trying \(operation) once more")
            let response = try retry()
            log("recovered: \(operation) answered \(response.code) after the port reset")
            return response
        } catch let again as ExchangeFailure where again.leavesDeviceStuck {
            log("\(operation) failed after the port reset too: \(describe(again, operation)); giving up")
            throw stillFailing(again, after: command, portReset: .done)
        }
    }

    /// Steps 1 to 3: status, Cancel, settle, drain, clear halts. Best effort: a refused step is logged and
    /// the next one runs.
    private func resetStillImageState() {
        var busy = false
        do {
            let status = try pipe.deviceStatus(timeout: timeouts.control)
            log("Get Device Status: \(status)")
            busy = status.code == .deviceBusy
            for endpoint in status.haltedEndpoints { try? clearHalt(address: endpoint) }
        } catch {
            log("Get Device Status: refused (\(describeUSB(error)))")
        }

        var cancelled = false
        if let known = strayTransactionID {
            cancelled = cancel(known, why: "the transaction the device was still answering")
        }
        if !cancelled { cancelled = cancel(Self.unknownTransactionID, why: "its id unknown") }

        if cancelled || busy {
            let deadline = clock.now() + timeouts.recovery
            while clock.now() < deadline, let status = try? pipe.deviceStatus(timeout: timeouts.control) {
                for endpoint in status.haltedEndpoints { try? clearHalt(address: endpoint) }
                guard status.code == .deviceBusy else {
                    log("Get Device Status after Cancel: \(status)")
                    break
                }
                clock.pause(0.02)
            }
        }

        let drained = drain(until: clock.now() + timeouts.recovery)
        log("drained bulk-in: \(drained) bytes")
        for role in [USBEndpointRole.bulkIn, .bulkOut] {
            do {
                try pipe.clearHalt(role)
                log("clear-halt \(role): done")
            } catch {
                log("clear-halt \(role): \(describeUSB(error))")
            }
        }
    }

    /// The class Cancel request for `transactionID`; true when the device took it.
    private func cancel(_ transactionID: UInt32, why: String) -> Bool {
        let shown = transactionID == Self.unknownTransactionID ? "0xFFFFFFFF" : "\(transactionID)"
        do {
            try pipe.cancelRequest(transactionID: transactionID, timeout: timeouts.control)
            log("Cancel (transaction \(shown), \(why)): accepted")
            return true
        } catch {
            log("Cancel (transaction \(shown), \(why)): refused (\(describeUSB(error)))")
            return false
        }
    }

    private func describe(_ failure: ExchangeFailure, _ operation: String) -> String {
        switch failure {
        case .usb(let code): describeUSB(code)
        case .outOfStep(let error): "\(error)"
        }
    }

    private func describeUSB(_ error: Error) -> String {
        (error as? LibUSBError)?.name ?? "\(error)"
    }

    /// The error to report when recovery did not help: what the command got, and what was tried.
    private func stillFailing(_ failure: ExchangeFailure, after command: PTPCommand, portReset: PTPError.PortReset) -> Error {
        let error = settle(failure, after: command)
        guard let ptp = error as? PTPError else { return error }
        switch ptp {
        case .malformed, .protocolViolation, .timeout, .connectionClosed, .usbTransfer: return PTPError.unrecovered(ptp, portReset: portReset)
        default: return ptp
        }
    }
}

/// Passes a data phase on to the caller's sink, noting whether any of it got there: a failed transaction
/// is only tried again when none did.
final class WatchedSink: DataSink {
    let sink: DataSink
    private(set) var touched = false

    init(_ sink: DataSink) { self.sink = sink }

    func begin(expectedLength: UInt64?) throws {
        touched = true
        try sink.begin(expectedLength: expectedLength)
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        touched = true
        try sink.write(chunk)
    }
}

