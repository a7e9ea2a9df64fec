import PTPFacts

/// The words for a USB camera's link: its speed in `devices` and `summary`, and the warning, once per
/// open, when the camera could go faster than its port or cable lets it.
public enum USBLinkWords {
    /// "high speed (480 Mb/s)", or "high speed (480 Mb/s; the camera can do SuperSpeed (5 Gb/s))".
    public static func describe(_ link: USBLink) -> String {
        guard link.isSlowerThanCamera, let capable = link.capable else { return link.speed.description }
        return "\(link.speed.description); the camera can do \(capable.description)"
    }

    /// The warning for a camera held back by its port; nil when it runs as fast as it can.
    public static func warning(location: String, _ link: USBLink) -> String? {
        guard link.isSlowerThanCamera, let capable = link.capable else { return nil }
        let inTheWay = link.speed <= .full ? "a USB 1.1 port or hub" : "a USB 2 port, hub or cable"
        let ratio = Int((megabits(capable) / megabits(link.speed)).rounded())
        return "\(location) runs at \(link.speed.description) though the camera can do \(capable.description): "
            + "\(inTheWay) is in the way, and transfers may take up to \(ratio) times as long (plug it into a faster port)"
    }

    /// The nominal signalling rate, in Mb/s.
    public static func megabits(_ speed: USBSpeed) -> Double {
        switch speed {
        case .low: 1.5
        case .full: 12
        case .high: 480
        case .superSpeed: 5_000
        case .superSpeedPlus: 10_000
        case .superSpeedPlusX2: 20_000
        }
    }
}
