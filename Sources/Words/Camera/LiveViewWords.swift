import Foundation
import TextKit

/// What `liveview` says: the line under the picture, a line per frame when pictures are off, the summary.
public enum LiveViewWords {
    /// Under the picture: `live view  19.8 fps  frame 120  (a key stops)`; the rate is of the frames after
    /// the first, over the `seconds` since it came.
    public static func status(frames: Int, seconds: Double, stopsOnKey: Bool) -> String {
        "live view  \(rate(frames: frames, seconds: seconds))  frame \(frames)" + (stopsOnKey ? "  (a key stops)" : "  (Ctrl-C stops)")
    }

    /// `frame 3: 320x240, 4.8 kB`.
    public static func frame(_ number: Int, width: Int?, height: Int?, bytes: Int) -> String {
        let size = width.flatMap { w in height.map { "\(w)x\($0), " } } ?? ""
        return "frame \(number): \(size)\(HumanReadable.size(UInt64(bytes)))"
    }

    /// `liveview: 120 frames in 6.0 s (19.8 fps)`: the rate of the frames after the first, over the time
    /// `sinceFirst` it came (the wait for the first is the body starting its live view).
    public static func summary(frames: Int, seconds: Double, sinceFirst: Double?) -> String {
        "liveview: \(frames) frame\(frames == 1 ? "" : "s") in \(String(format: "%.1f", seconds)) s (\(rate(frames: frames, seconds: sinceFirst ?? 0)))"
    }

    /// `19.8 fps` for `frames` of which the first came `seconds` ago; `- fps` before there is a rate.
    static func rate(frames: Int, seconds: Double) -> String {
        guard frames > 1, seconds > 0 else { return "- fps" }
        return String(format: "%.1f fps", Double(frames - 1) / seconds)
    }

    /// `saved preview.jpg (320x240, 4.8 kB)`.
    public static func saved(_ path: String, width: Int?, height: Int?, bytes: Int) -> String {
        let size = width.flatMap { w in height.map { "\(w)x\($0), " } } ?? ""
        return "saved \(SafeText.display(path)) (\(size)\(HumanReadable.size(UInt64(bytes))))"
    }

    /// A camera without live view.
    public static let notOffered =
        "this camera has no live view (standard PTP defines none; Canon EOS and Nikon bodies have it, and "
        + "Fujifilm X bodies on Wi-Fi in their remote mode)"
}
