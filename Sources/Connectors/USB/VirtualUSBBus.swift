import MediaManager
import PTPUSB
import VirtualCamera

/// Virtual cameras presented as if attached over USB, for tests of choosing a camera: each is the demo
/// card served by the in-process virtual camera, under its own model name and serial number, at
/// `usb:001,002`, `usb:001,003`, ... The binary uses it when `MEDIASHELL_TEST_USB_CAMERAS` is set, as
/// `MODEL/SERIAL;MODEL/SERIAL` (`Alpha/A1;Beta/B2`; the serial may be left out): a test seam, never a
/// way to reach a real device.
public struct VirtualUSBBus: USBCameraBus {
    public static let environmentVariable = "MEDIASHELL_TEST_USB_CAMERAS"
    /// A vendor id no real device uses (0xF055: free and open source), so no one mistakes these for hardware.
    public static let vendorID: UInt16 = 0xF055

    public let attached: [USBCameraDescription]

    /// Cameras named by model and serial number (empty for none), at consecutive addresses on bus 1.
    public init(_ cameras: [(model: String, serial: String)]) {
        attached = cameras.enumerated().map { index, camera in
            USBCameraDescription(
                bus: 1, address: index + 2, vendorID: Self.vendorID, productID: 1, manufacturer: "mediashell",
                model: camera.model, serialNumber: camera.serial)
        }
    }

    /// The cameras `MEDIASHELL_TEST_USB_CAMERAS` lists; nil when it is not set.
    public init?(environment: [String: String]) {
        guard let text = environment[Self.environmentVariable] else { return nil }
        let cameras = text.split(separator: ";").map { entry in
            let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            return (model: String(parts[0]), serial: parts.count > 1 ? String(parts[1]) : "")
        }
        self.init(cameras)
    }

    public func cameras() -> [USBCameraDescription] { attached }

    public func open(_ camera: USBCameraDescription, options: CameraConnector.Options) throws -> Camera {
        var identity = VirtualCamera.Identity()
        identity.manufacturer = camera.manufacturer
        identity.model = camera.model
        identity.serialNumber = camera.serialNumber
        return try CameraConnector.inProcess(
            card: try DemoCard.make(), identity: identity, location: camera.url, options: options)
    }
}
