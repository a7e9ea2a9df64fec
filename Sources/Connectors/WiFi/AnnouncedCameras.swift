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

    /// The cameras that answer SSDP and mDNS questions within `seconds`, asked on the local network and on
    /// this computer's loopback; nil when discovery is turned off. `MEDIASHELL_DISCOVERY_TARGETS` in
    /// `environment` (tests, and networks where multicast does not carry): `off`, or
    /// `ssdp=HOST:PORT,mdns=HOST:PORT,...` to ask those addresses, unicast, instead.
    /// `MEDIASHELL_TEST_ADVERTISE_PORTS=SSDP,MDNS` (tests, as `serve` takes it) asks at those ports instead of
    /// 1900 and 5353.
    public static func announcedCameras(seconds: Double = discoverySeconds, environment: [String: String]) -> [AnnouncedCamera]? {
        var targets = DiscoveryTargets.local()
        if let ports = environment["MEDIASHELL_TEST_ADVERTISE_PORTS"]?.split(separator: ",").compactMap({ UInt16($0) }), ports.count == 2 {
            targets = DiscoveryTargets.local(ssdpPort: ports[0], mdnsPort: ports[1])
        }
        if let text = environment["MEDIASHELL_DISCOVERY_TARGETS"] {
            guard text != "off", let given = DiscoveryTargets(parsing: text) else { return nil }
            targets = given
        }
        return CameraBrowser.find(seconds: seconds, targets: targets).map {
            AnnouncedCamera(url: $0.url, description: "\($0.name), by \($0.via)")
        }
    }
}
