import MediaManager
import PTP
import PTPUSB
import VirtualCamera

/// Demo cameras presented as if attached over USB, for trying `usb:` URLs, `devices` and the choice among
/// several cameras on a machine without them (a demo, a dry run of a script, the tests of the binary): each
/// is the demo card served by the in-process virtual camera, under its own model name and serial number, at
/// `usb:001,002`, `usb:001,003`, ... The binary uses it instead of libusb's bus when
/// `MEDIASHELL_DEMO_USB_CAMERAS` is set, as `MODEL/SERIAL;MODEL/SERIAL` (`Alpha/A1;Beta/B2`; the serial may
/// be left out), each optionally with the link it is on, `@SPEED` or `@SPEED<CAPABLE` (`Alpha/A1@high<super`:
/// a SuperSpeed camera on a high-speed port; speeds by `USBSpeed.shortName`). Never a way to reach a real
/// device: their vendor id is no device's, and their maker is "mediashell".
public struct VirtualUSBBus: USBCameraBus {
    public static let environmentVariable = "MEDIASHELL_DEMO_USB_CAMERAS"
    /// A vendor id no real device uses (0xF055: free and open source), so no one mistakes these for hardware.
    public static let vendorID: UInt16 = 0xF055

    public let attached: [USBCameraDescription]

    /// Cameras named by model and serial number (empty for none), at consecutive addresses on bus 1.
    public init(_ cameras: [(model: String, serial: String)]) {
        self.init(cameras.map { (model: $0.model, serial: $0.serial, link: USBLink?.none) })
    }

    /// Cameras with the link each is on (nil: not said).
    public init(_ cameras: [(model: String, serial: String, link: USBLink?)]) {
        attached = cameras.enumerated().map { index, camera in
            USBCameraDescription(
                bus: 1, address: index + 2, vendorID: Self.vendorID, productID: 1, manufacturer: "mediashell",
                model: camera.model, serialNumber: camera.serial, link: camera.link)
        }
    }

    /// The cameras `MEDIASHELL_DEMO_USB_CAMERAS` lists; nil when it is not set.
    public init?(environment: [String: String]) {
        guard let text = environment[Self.environmentVariable] else { return nil }
        let cameras = text.split(separator: ";").map { whole in
            let linked = whole.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
            let parts = linked[0].split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            let speeds = linked.count > 1 ? linked[1].split(separator: "<").map(String.init) : []
            let link = speeds.first.flatMap(USBSpeed.init(shortName:)).map {
                USBLink(speed: $0, capable: speeds.count > 1 ? USBSpeed(shortName: speeds[1]) : nil)
            }
            return (model: String(parts.first ?? ""), serial: parts.count > 1 ? String(parts[1]) : "", link: link)
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
            card: try DemoCard.make(), identity: identity, location: camera.url, options: options, usbLink: camera.link)
    }
}
