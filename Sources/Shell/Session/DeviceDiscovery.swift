import Connectors
import PTP

/// A camera attached to this computer, as `devices` lists it.
public struct DeviceListing: Sendable, Equatable {
    /// The URL that opens it, e.g. `usb:001,004`.
    public let url: String
    /// What it is, e.g. `04a9:32b4  Canon Inc. EOS R6`.
    public let description: String

    public init(url: String, description: String) {
        self.url = url
        self.description = description
    }
}

/// Finding cameras to open: the PTP/MTP devices on USB, through the connector (the shell knows no transport).
public enum DeviceDiscovery {
    /// The USB cameras attached (none on a machine without USB).
    public static func usbCameras() -> [DeviceListing] {
        CameraConnector.attachedCameras().map { camera in
            var text = "\(camera.usbID)  \(camera.displayName)"
            if !camera.serialNumber.isEmpty { text += "  serial \(camera.serialNumber)" }
            if let link = camera.link { text += "  \(USBLinkWords.describe(link))" }
            if let problem = camera.problem { text += "  (\(problem))" }
            return DeviceListing(url: camera.url, description: text)
        }
    }
}
