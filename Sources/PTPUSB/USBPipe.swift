import Foundation

/// The endpoints of a still-image interface, named by their role.
public enum USBEndpointRole: String, Sendable, CustomStringConvertible {
    case bulkIn = "bulk-in"
    case bulkOut = "bulk-out"
    case interruptIn = "interrupt-in"
    public var description: String { rawValue }
}

/// What the PTP framing needs from a USB interface: its bulk and interrupt endpoints and class requests
/// on the default control pipe. libusb implements it for real devices (`LibUSBPipe`); tests use an
/// in-memory pipe that splits transfers into packets the way a bus does.
///
/// Failures are `LibUSBError`s with libusb's meaning: `.timeout` (nothing within the time),
/// `.pipe` (the endpoint is stalled), `.noDevice` (unplugged), `.overflow` (the device sent more than asked).
public protocol USBPipe: AnyObject, Sendable {
    /// wMaxPacketSize of the bulk-in endpoint.
    var bulkInPacketSize: Int { get }
    /// wMaxPacketSize of the bulk-out endpoint.
    var bulkOutPacketSize: Int { get }
    /// True when the interface has an interrupt-in endpoint for events.
    var hasInterruptIn: Bool { get }

    /// One bulk-out transfer of all of `bytes`; an empty buffer sends a zero-length packet.
    func bulkOut(_ bytes: UnsafeRawBufferPointer, timeout: TimeInterval) throws
    /// One bulk-in transfer into `buffer`. Returns the bytes received: fewer than `buffer.count` means the
    /// device ended the transfer with a short or zero-length packet.
    func bulkIn(into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval) throws -> Int
    /// Queues one bulk-in transfer into `buffer` and returns at once. Transfers queued on the endpoint end
    /// in the order they were submitted, each at a short (or zero-length) packet or when its buffer is full,
    /// so the bus goes on receiving into the next while the host handles the last. `buffer` must stay
    /// valid until `reapBulkIn` returned for the transfer.
    func submitBulkIn(into buffer: UnsafeMutableRawBufferPointer) throws -> USBQueuedTransfer
    /// Asks the bus to end a queued transfer now, with what it received so far; it must still be reaped.
    func cancelBulkIn(_ transfer: USBQueuedTransfer)
    /// Waits for a queued transfer to end (the oldest one not yet reaped), cancelling it once `timeout` has
    /// passed from now or `interruptTransfers` was called, and never returning while the bus still owns its
    /// buffer. Returns and throws as `bulkIn` does; a transfer cancelled by `cancelBulkIn` throws `.io`.
    func reapBulkIn(_ transfer: USBQueuedTransfer, timeout: TimeInterval) throws -> Int
    /// One interrupt-in transfer into `buffer`; returns the bytes received.
    func interruptIn(into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval) throws -> Int
    /// A class request to the interface, host to device (bmRequestType 0x21).
    func classRequestOut(_ request: UInt8, value: UInt16, data: [UInt8], timeout: TimeInterval) throws
    /// A class request to the interface, device to host (bmRequestType 0xA1); returns what the device sent.
    func classRequestIn(_ request: UInt8, value: UInt16, length: Int, timeout: TimeInterval) throws -> [UInt8]
    /// CLEAR_FEATURE(ENDPOINT_HALT): un-stalls an endpoint and resets its data toggle.
    func clearHalt(_ endpoint: USBEndpointRole) throws
    /// A USB port reset (libusb_reset_device), then the interface claimed again: the last resort for a device
    /// that refuses every command. The device's PTP session is closed by it. `.notFound` when the device
    /// came back as a different one (it must be opened again from the bus).
    func resetPort() throws
    /// Ends the bulk and interrupt transfers in progress at once (within 0.1 s), and every later call, with
    /// `.interrupted`; callable from any thread while another waits on the device. For `close` during a
    /// transfer: Ctrl-C must not wait out a transfer's timeout.
    func interruptTransfers()
    /// Releases the interface and the device. Later calls fail with `.noDevice`.
    func close()
}
