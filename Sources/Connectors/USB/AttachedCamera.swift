import PTP
import PTPUSB

/// A camera attached to this computer, as the layers above see it (they never import a transport): the URL
/// that opens it and what it says it is.
public struct AttachedCamera: Sendable, Equatable {
    /// The URL that opens it, e.g. `usb:001,004`.
    public let url: String
    /// Vendor and product ids, `04a9:32b4`.
    public let usbID: String
    /// Manufacturer and model, as the device names itself.
    public let displayName: String
    /// Its serial number, empty when it gives none.
    public let serialNumber: String
    /// Why it may not open (another program holds it, no permission), nil when nothing is known against it.
    public let problem: String?
    /// The speed it runs at and the best it can do; nil when the system does not say.
    public let link: USBLink?

    init(_ camera: USBCameraDescription) {
        url = camera.url
        usbID = camera.usbID
        displayName = camera.displayName
        serialNumber = camera.serialNumber
        problem = camera.problem
        link = camera.link
    }
}

extension CameraConnector {
    /// The PTP/MTP cameras attached over USB, for `devices` and the shell's start: empty on a machine
    /// without USB.
    public static func attachedCameras(options: Options = Options()) -> [AttachedCamera] {
        usbCameras(options: options).map(AttachedCamera.init)
    }
}
