import Discovery

/// A camera that announced itself on the local network (SSDP or mDNS), as `devices` lists it.
public struct AnnouncedCamera: Equatable, Sendable {
    /// The URL that opens it: `ptpip:192.168.1.20`.
    public var url: String
    /// What it said it is, and how: `Canon camera (smartphone mode), by SSDP`.
    public var description: String
}

extension CameraConnector {
    /// How long `devices` listens for cameras' answers.
    public static let discoverySeconds = 2.0

    /// The cameras that answer SSDP and mDNS questions within `seconds`; nil when discovery is turned off.
    /// `MEDIASHELL_DISCOVERY_TARGETS` in `environment` (tests, and networks where multicast does not carry):
    /// `off`, or `ssdp=HOST:PORT,mdns=HOST:PORT,...` to ask those addresses, unicast, instead of the groups.
    public static func announcedCameras(seconds: Double = discoverySeconds, environment: [String: String]) -> [AnnouncedCamera]? {
        var targets = DiscoveryTargets.multicast
        if let text = environment["MEDIASHELL_DISCOVERY_TARGETS"] {
            guard text != "off", let given = DiscoveryTargets(parsing: text) else { return nil }
            targets = given
        }
        return CameraBrowser.find(seconds: seconds, targets: targets).map {
            AnnouncedCamera(url: $0.url, description: "\($0.name), by \($0.via)")
        }
    }
}
