import MediaManager
import TerminalKit

/// What the shell says of a camera it opened.
public enum SessionWords {
    /// `opened sim: (Virtual Camera, 10 files)`.
    public static func opened(_ media: MediaSession) -> String {
        let summary = media.camera.summary
        let count = media.catalog.fileCount
        let model = [summary.manufacturer, summary.model].filter { !$0.isEmpty }.joined(separator: " ")
        // The address opened (`usb:001,004` for a bare `usb:`), as `devices` and `summary` write it.
        return "opened \(SafeText.display(media.camera.location)) (\(SafeText.display(model)), "
            + "\(count) file\(count == 1 ? "" : "s"))"
    }
}
