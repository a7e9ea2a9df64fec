import CameraFacts
import PTPFacts

/// What `props` and `prop` say about a camera whose settings cannot be shown.
public enum PropertyWords {
    /// A device without settings.
    public static let noProperties = "this camera reports no settings (its DeviceInfo lists no device properties)"

    /// One that lists properties it cannot describe (no GetDevicePropDesc).
    public static func cannotDescribe(_ codes: [DevicePropertyCode]) -> String {
        "this camera lists \(codes.map { PropertyMeaning.of($0).name }.joined(separator: ", ")) but cannot describe them (no GetDevicePropDesc)"
    }

    /// The properties a camera lists but refuses to describe (its GetDevicePropDesc answers that it does not
    /// support them, as Fujifilm bodies over USB do for most of their vendor codes): left out, said once.
    public static func leftOut(_ codes: [DevicePropertyCode]) -> String {
        let names = codes.prefix(8).map { PropertyMeaning.of($0).name }.joined(separator: ", ") + (codes.count > 8 ? ", …" : "")
        let count = codes.count == 1 ? "1 setting" : "\(codes.count) settings"
        return "props: \(count) the camera lists but does not describe (it answers that it does not support "
            + "\(codes.count == 1 ? "it" : "them")), left out: \(names)"
    }
}
