import Foundation
import MediaManager
import PTP
import PTPUSB

/// Where `usb:` URLs find cameras: the machine's USB bus through libusb, or a set of demo cameras presented
/// as if they were attached (`VirtualUSBBus`), so that choosing among several cameras can be tried, and
/// tested, without a bus.
public protocol USBCameraBus: Sendable {
    /// The PTP/MTP cameras attached, in bus order.
    func cameras() -> [USBCameraDescription]
    /// Opens `camera` (one that `cameras()` listed) as a camera whose location is its address.
    func open(_ camera: USBCameraDescription, options: CameraConnector.Options) throws -> Camera
}

/// The machine's USB bus, through libusb.
public struct LibUSBCameraBus: USBCameraBus {
    public init() {}

    public func cameras() -> [USBCameraDescription] { USBTransport.cameras() }

    public func open(_ camera: USBCameraDescription, options: CameraConnector.Options) throws -> Camera {
        let transport: USBTransport
        // The open's steps in the trace (`--debug-ptp`), before its first container.
        let trace = options.trace
        trace?.note("usb: opening \(camera.url) (\(camera.usbID)), interface \(camera.interfaceNumber) (\(camera.announcement.rawValue))")
        do {
            transport = try USBTransport.open(
                .address(bus: camera.bus, address: camera.address), timeouts: USBTimeouts(transfer: options.timeout))
        } catch let error as USBCameraError {
            trace?.note("usb: open failed: \(error)")
            throw CameraOpenError.usb(error)
        }
        trace?.note("usb: \(transport.camera?.url ?? camera.url) open, interface \(camera.interfaceNumber) claimed")
        return try Camera(
            transport: CameraConnector.sessionTransport(transport, options: options),
            location: transport.camera?.url ?? camera.url, usbLink: transport.camera?.link ?? camera.link)
    }
}

extension CameraConnector {
    /// The bus `usb:` uses unless told otherwise: demo cameras when `MEDIASHELL_DEMO_USB_CAMERAS` is set
    /// (a demo, the tests of the binary), else libusb's.
    public static let standardUSBBus: USBCameraBus =
        VirtualUSBBus(environment: ProcessInfo.processInfo.environment) ?? LibUSBCameraBus()
}
