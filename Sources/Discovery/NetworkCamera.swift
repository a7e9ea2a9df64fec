/// A camera that announced itself on the local network, and the URL that opens it.
public struct NetworkCamera: Equatable, Sendable {
    /// `ptpip:192.168.1.20` (`ptpip:HOST:PORT` off PTP/IP's port 15740).
    public var url: String
    /// What it said it is: its mDNS instance name, or the brand and mode its SSDP search target names.
    public var name: String
    public var host: String
    public var port: UInt16
    /// How it answered: "SSDP" or "mDNS".
    public var via: String

    public init(name: String, host: String, port: UInt16, via: String) {
        self.name = name
        self.host = host
        self.port = port
        self.via = via
        url = port == 15740 ? "ptpip:\(host)" : "ptpip:\(host):\(port)"
    }
}

/// What discovery asks for and what it recognises.
public enum DiscoveryNames {
    /// PTP/IP's DNS-SD service type (RFC 6763), which cameras that use mDNS announce.
    public static let serviceType = "_ptp._tcp.local"
    /// The SSDP search target of `mediashell serve --advertise`.
    public static let serveTarget = "urn:schemas-mediashell-org:device:PTPIPCamera:1"
    /// The header of serve's SSDP answer that names its PTP/IP port (vendor headers carry a domain, UPnP 1.1).
    public static let portHeader = "PTPIP-PORT.MEDIASHELL.ORG"

    /// The SSDP search targets of cameras that take PTP/IP, and what each says of the camera.
    public static let ssdpTargets: [(target: String, camera: String)] = [
        ("urn:schemas-canon-com:service:ICPO-WFTEOSSystemService:1", "Canon camera (EOS Utility / computer mode)"),
        ("urn:schemas-canon-com:service:ICPO-SmartPhoneEOSSystemService:1", "Canon camera (smartphone mode)"),
        ("urn:microsoft-com:service:MtpNullService:1", "MTP/IP camera (Sony and others)"),
        (serveTarget, "mediashell serve"),
    ]
}
