import Foundation
import POSIX
import PTP

/// How the USB transport gets back in step with a device within a session: a stall is explained by Get
/// Device Status and cleared, a failed transaction is cancelled with the class Cancel request and the
/// bulk-in pipe drained.
extension USBTransport {
    /// The device ended the transaction by stalling a pipe and reported why in Get Device Status.
    struct DeviceAbort: Error { var code: ResponseCode }

    /// An error that leaves the pipe out of step with the device.
    struct TransactionFailure: Error { var error: Error }

    /// Runs a transfer; when the endpoint stalls, asks the device why (a response code it reports ends the
    /// transaction with that code), clears the halt and tries again, twice at most.
    @discardableResult
    func withStallRecovery<R>(_ role: USBEndpointRole, _ body: () throws -> R) throws -> R {
        var stalls = 0
        while true {
            do {
                return try body()
            } catch LibUSBError.pipe {
                stalls += 1
                if stalls > 2 { throw LibUSBError.pipe }
                let status = try? pipe.deviceStatus(timeout: timeouts.control)
                try pipe.clearHalt(role)
                if let status {
                    for endpoint in status.haltedEndpoints { try? clearHalt(address: endpoint) }
                    if status.code != .ok, status.code != .deviceBusy {
                        inbound.discardBuffered()
                        throw DeviceAbort(code: status.code)
                    }
                }
            }
        }
    }

    func clearHalt(address: UInt8) throws {
        try pipe.clearHalt(address & 0x80 != 0 ? .bulkIn : .bulkOut)
    }

    /// After a Cancel: wait (bounded) until the device is no longer busy, clear the halts it reports, and
    /// drop whatever it still had in flight.
    func settleAfterCancel() {
        let deadline = clock.now() + timeouts.recovery
        while clock.now() < deadline {
            guard let status = try? pipe.deviceStatus(timeout: timeouts.control) else { break }
            for endpoint in status.haltedEndpoints { try? clearHalt(address: endpoint) }
            if status.code != .deviceBusy { break }
            clock.pause(0.02)
        }
        drain(until: deadline)
    }

    /// Reads and discards bulk-in data until the device has nothing more (a short wait finds nothing);
    /// returns how many bytes that was.
    @discardableResult
    func drain(until deadline: Double) -> UInt64 {
        var drained = UInt64(inbound.available)
        inbound.discardBuffered()
        while clock.now() < deadline {
            do {
                drained += UInt64(try inbound.fill(want: inbound.chunkSize, timeout: min(0.2, timeouts.transfer)))
                inbound.discardBuffered()
            } catch LibUSBError.pipe {
                if (try? pipe.clearHalt(.bulkIn)) == nil { break }
            } catch {
                break
            }
        }
        inbound.discardBuffered()
        return drained
    }

    /// Best effort after a failed transaction: cancel it, let the device settle, drain the pipe.
    func recover(after command: PTPCommand) {
        if (try? pipe.cancelRequest(transactionID: command.transactionID, timeout: timeouts.control)) != nil {
            settleAfterCancel()
        } else {
            drain(until: clock.now() + timeouts.recovery)
        }
    }
}
