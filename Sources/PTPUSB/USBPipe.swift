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
