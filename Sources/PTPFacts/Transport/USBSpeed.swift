/// The signalling rate of a USB link (libusb's `enum libusb_speed`, by the same numbers): what a camera and
/// its port agreed on, or the best the camera says it can do. Here, below both the USB transport and the
/// camera layer, so that each can speak of it.
public enum USBSpeed: Int, Sendable, Comparable, CaseIterable {
    case low = 1
    case full = 2
    case high = 3
    case superSpeed = 4
    case superSpeedPlus = 5
    case superSpeedPlusX2 = 6

    /// "high speed (480 Mb/s)", as the USB specifications name them.
    public var description: String {
        switch self {
        case .low: "low speed (1.5 Mb/s)"
        case .full: "full speed (12 Mb/s)"
        case .high: "high speed (480 Mb/s)"
        case .superSpeed: "SuperSpeed (5 Gb/s)"
        case .superSpeedPlus: "SuperSpeed+ (10 Gb/s)"
        case .superSpeedPlusX2: "SuperSpeed+ (20 Gb/s)"
        }
    }

    /// The name the test cameras' environment uses (`high`, `super`).
    public var shortName: String {
        switch self {
        case .low: "low"
        case .full: "full"
        case .high: "high"
        case .superSpeed: "super"
        case .superSpeedPlus: "super-plus"
        case .superSpeedPlusX2: "super-plus-x2"
        }
    }

    public init?(shortName: String) {
        guard let speed = Self.allCases.first(where: { $0.shortName == shortName }) else { return nil }
        self = speed
    }

    public static func < (a: USBSpeed, b: USBSpeed) -> Bool { a.rawValue < b.rawValue }
}

/// How a USB camera is connected: the speed it runs at, and the best it says it can do (nil: it said
/// nothing beyond what it runs at).
public struct USBLink: Sendable, Equatable {
    public var speed: USBSpeed
    public var capable: USBSpeed?

    public init(speed: USBSpeed, capable: USBSpeed? = nil) {
        self.speed = speed
        self.capable = capable
    }

    /// True when the camera could go faster than the port (or the cable) lets it.
    public var isSlowerThanCamera: Bool { capable.map { $0 > speed } ?? false }
}
