import CLibUSB
import Foundation

/// Bulk-in transfers queued several at a time (`USBPipe.submitBulkIn`), through libusb's asynchronous API
/// and the C shim's `msh_libusb_submit_bulk_in` / `msh_libusb_reap`: reaping a transfer handles libusb's
/// events until it ends, and cancels it on the transfer's timeout or `interruptTransfers` (Ctrl-C, close).
extension LibUSBPipe {
    func submitBulkIn(into buffer: UnsafeMutableRawBufferPointer) throws -> USBQueuedTransfer {
        let raw = try openHandle()
        var status: Int32 = 0
        guard let queued = msh_libusb_submit_bulk_in(
            raw, bulkInAddress, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(buffer.count), &status)
        else { throw LibUSBError(rawValue: status) }
        return LibUSBQueuedBulkIn(queued)
    }

    func cancelBulkIn(_ transfer: USBQueuedTransfer) {
        guard let transfer = transfer as? LibUSBQueuedBulkIn, let raw = transfer.raw else { return }
        msh_libusb_cancel_queued(raw)
    }

    func reapBulkIn(_ transfer: USBQueuedTransfer, timeout: TimeInterval) throws -> Int {
        guard let transfer = transfer as? LibUSBQueuedBulkIn, let raw = transfer.raw else {
            throw LibUSBError.invalidParameter
        }
        transfer.raw = nil  // freed by msh_libusb_reap
        var transferred: Int32 = 0
        let status = msh_libusb_reap(handle.context.raw, raw, milliseconds(timeout), interrupted, &transferred)
        if status == 0 { return Int(transferred) }
        if wasInterrupted(status) { throw LibUSBError.interrupted }
        // As `bulkIn`: bytes that arrived before a timeout are part of the stream.
        if status == LIBUSB_ERROR_TIMEOUT.rawValue, transferred > 0 { return Int(transferred) }
        throw LibUSBError(rawValue: status)
    }
}

/// A transfer queued by `LibUSBPipe.submitBulkIn`; `raw` is nil once reaped (and freed).
final class LibUSBQueuedBulkIn: USBQueuedTransfer, @unchecked Sendable {
    // Safe because the transport submits, cancels and reaps its transfers under its transaction lock.
    var raw: UnsafeMutablePointer<msh_queued_transfer>?
    init(_ raw: UnsafeMutablePointer<msh_queued_transfer>) { self.raw = raw }
}
