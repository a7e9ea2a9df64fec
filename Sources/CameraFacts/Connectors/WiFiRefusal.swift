/// Why a Wi-Fi camera refused this computer (PTP/IP's Init_Fail), as the shell words it.
public enum WiFiRefusal: Equatable, Sendable, CustomStringConvertible {
    /// The camera does not accept this computer's GUID: not paired, declined on its screen, or not the one
    /// registered with it.
    case rejectedInitiator
    /// The camera serves another device.
    case busy
    case unspecified
    case other(UInt32)

    public var description: String {
        switch self {
        case .rejectedInitiator: "rejected initiator"
        case .busy: "busy"
        case .unspecified: "unspecified"
        case .other(let value): "reason \(value)"
        }
    }
}
