import MediaManager
import PTPUSB

extension CameraConnector {
    /// Whether opening `url` may reach the device already open as `opened` (at `location`, the address it
    /// was opened at: `usb:001,004` for a bare `usb:`): the USB camera `url` would choose on `bus` when
    /// that is the one open (a USB device is claimed by one session at a time), or a Wi-Fi camera at the
    /// same host (most take one connection). Such a camera must let go before `url` can be opened; any
    /// other stays open until the new one is. In-process cameras (`sim:`, `dir:`) never clash.
    public static func mayReachSameDevice(
        _ url: CameraURL, asOpen opened: CameraURL, location: String, bus: USBCameraBus = standardUSBBus
    ) -> Bool {
        if let host = wifiHost(url), let openHost = wifiHost(opened) {
            return host.lowercased() == openHost.lowercased()
        }
        guard let selector = usbSelector(url), usbSelector(opened) != nil else { return false }
        // Only the camera the open would take: none (the open fails, leaving the one open) or another is no clash.
        return bus.cameras().first(where: selector.matches)?.url == location
    }

    /// The host of a camera reached over the network.
    private static func wifiHost(_ url: CameraURL) -> String? {
        switch url {
        case .ptpip(let host, _, _), .fuji(let host, _, _, _): host
        default: nil
        }
    }
}
