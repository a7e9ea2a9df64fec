import CameraFacts
import TextKit

/// A camera URL inside a message. A URL that ends with its scheme's colon (`usb:`, `sim:`) is quoted, so
/// that `cannot open 'usb:': 2 USB cameras are attached` does not read as `usb::`.
public enum URLText {
    public static func inMessage(_ url: String) -> String {
        let shown = SafeText.display(url)
        return shown.hasSuffix(":") ? "'\(shown)'" : shown
    }

    /// Where the camera is, briefly (the prompt's `%c`): `sim:`, `dir:`, `usb:`, `ptpip:192.168.1.1:`,
    /// `ptpip:127.0.0.1:5555:`, `fuji:192.168.0.1:`.
    public static func tag(_ url: CameraURL) -> String {
        switch url {
        case .simulator: "sim:"
        case .folder: "dir:"
        case .usbFirst, .usbAddress, .usbID, .usbSerial, .usbModel: "usb:"
        case .ptpip(let host, let port, _):
            "ptpip:\(SafeText.display(host)):" + (port == CameraURL.defaultPTPIPPort ? "" : "\(port):")
        case .fuji(let host, let port, _, _):
            "fuji:\(SafeText.display(host)):" + (port == CameraURL.defaultFujiPort ? "" : "\(port):")
        }
    }
}
