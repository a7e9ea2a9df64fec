import CameraFacts
import TextKit

/// What the shell says of a camera it opened.
public enum SessionWords {
    /// `opened sim: (Virtual Camera, 10 files)`: the camera's `summary` and the files its catalog holds.
    public static func opened(_ summary: CameraSummary, fileCount count: Int) -> String {
        let model = [summary.manufacturer, summary.model].filter { !$0.isEmpty }.joined(separator: " ")
        // The address opened (`usb:001,004` for a bare `usb:`), as `devices` and `summary` write it.
        return "opened \(SafeText.display(summary.location)) (\(SafeText.display(model)), "
            + "\(count) file\(count == 1 ? "" : "s"))"
    }
}
