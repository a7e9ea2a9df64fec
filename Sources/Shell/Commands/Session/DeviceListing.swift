import Connectors
import Foundation
import PTP
import TerminalKit
import Words

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

    /// The Wi-Fi cameras that announce themselves on the local network (SSDP, mDNS), asked for about two
    /// seconds; nil when discovery is turned off (`MEDIASHELL_DISCOVERY_TARGETS=off`).
    public static func networkCameras(environment: [String: String] = ProcessInfo.processInfo.environment) -> [DeviceListing]? {
        CameraConnector.announcedCameras(environment: environment)?.map { DeviceListing(url: $0.url, description: $0.description) }
    }

    /// The lines `devices` writes: each camera with its URL, and for a kind that found none, a line that says
    /// so. `wifiOnly` asks only the network.
    public static func lines(wifiOnly: Bool, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> (lines: [String], found: [DeviceListing])
    {
        let usb = wifiOnly ? [] : usbCameras()
        let network = networkCameras(environment: environment)
        let found = usb + (network ?? [])
        var lines = ColumnTable(rows: found.map { [SafeText.display($0.url), SafeText.display($0.description)] }).lines()
        if !wifiOnly && usb.isEmpty { lines.append("no USB cameras found") }
        if let network, network.isEmpty {
            lines.append("no Wi-Fi cameras answered within \(Int(CameraConnector.discoverySeconds)) s (SSDP, mDNS)")
        }
        return (lines, found)
    }
}
