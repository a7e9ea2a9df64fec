import MediaManager
import PTP

/// What `props` and `prop` say about a camera whose settings cannot be shown.
public enum PropertyWords {
    /// A device without settings.
    public static let noProperties = "this camera reports no settings (its DeviceInfo lists no device properties)"

    /// One that lists properties it cannot describe (no GetDevicePropDesc).
    public static func cannotDescribe(_ codes: [DevicePropertyCode]) -> String {
        "this camera lists \(codes.map { PropertyMeaning.of($0).name }.joined(separator: ", ")) but cannot describe them (no GetDevicePropDesc)"
    }
}
