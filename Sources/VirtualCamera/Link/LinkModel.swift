/// A model of the link between a camera and its computer: every request-response costs one round trip,
/// and every data phase moves at the link's bandwidth. `serve --link` applies it in the responder, so a
/// PTP/IP client tested on loopback meets the costs of Wi-Fi or USB 2.0 — deterministically, without
/// shaping the kernel's network.
///
/// The cost of one transaction is `roundTrip + dataBytes / bytesPerSecond`; the PTP/IP connection set-up
/// (the Init packets and TCP handshakes) is not delayed.
public struct LinkModel: Equatable, Sendable, CustomStringConvertible {
    /// Seconds from the request leaving the initiator until the response could arrive back, without data.
    public var roundTrip: Double
    /// Bytes per second in either direction.
    public var bytesPerSecond: Double

    public init(roundTrip: Double, bytesPerSecond: Double) {
        self.roundTrip = roundTrip
        self.bytesPerSecond = bytesPerSecond
    }

    /// The named links: what Wi-Fi cameras, USB 2.0 and USB 3.0 deliver in practice.
    public static let presets: [(name: String, link: LinkModel)] = [
        ("wifi", LinkModel(roundTrip: 0.005, bytesPerSecond: 20e6)),
        ("usb2", LinkModel(roundTrip: 0.0005, bytesPerSecond: 40e6)),
        ("usb3", LinkModel(roundTrip: 0.0002, bytesPerSecond: 300e6)),
    ]

    public static let syntax = "wifi|usb2|usb3|RTT_MS,MBPS"

    /// `wifi`, `usb2`, `usb3`, or `RTT_MS,MBPS` (`5,20` is 5 ms and 20 MB/s, decimal megabytes).
    public init?(parsing text: String) {
        if let preset = Self.presets.first(where: { $0.name == text.lowercased() }) {
            self = preset.link
            return
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let milliseconds = Double(parts[0]), let megabytes = Double(parts[1]),
            milliseconds.isFinite, megabytes.isFinite, milliseconds >= 0, milliseconds <= 10_000,
            megabytes > 0, megabytes <= 100_000
        else { return nil }
        self.init(roundTrip: milliseconds / 1000, bytesPerSecond: megabytes * 1e6)
    }

    /// Seconds that `bytes` take on the wire.
    public func transmission(of bytes: UInt64) -> Double { Double(bytes) / bytesPerSecond }

    /// "5 ms round trip, 20 MB/s".
    public var description: String {
        let ms = roundTrip * 1000
        let rtt = ms == ms.rounded() ? String(Int(ms)) : String(ms)
        let rate = bytesPerSecond / 1e6
        let mbps = rate == rate.rounded() ? String(Int(rate)) : String(rate)
        return "\(rtt) ms round trip, \(mbps) MB/s"
    }
}

/// Where a shaped link reads the time and waits: the monotonic clock in `serve`, a manual one in tests.
public protocol LinkClock: Sendable {
    /// Seconds on a clock that never goes back.
    func now() -> Double
    /// Returns no earlier than `moment` (at once when it has passed).
    func sleep(until moment: Double)
}
