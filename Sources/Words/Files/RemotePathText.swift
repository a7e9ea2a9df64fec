import CameraFacts
import TextKit

extension RemotePath {
    /// The path as shown to the user: `/` for the top, `/DCIM/100MEDIA` otherwise (made safe to print).
    public static func display(_ path: String) -> String {
        SafeText.display("/" + path)
    }

    /// The folder as `/DCIM/100MEDIA`, or `…/100MEDIA/CLIPS` when it has more than two parts; at most 32 cells.
    public static func shortDisplay(_ path: String) -> String {
        let parts = path.split(separator: "/").map { SafeText.display(String($0)) }
        let shown = parts.count > 2 ? "…/" + parts.suffix(2).joined(separator: "/") : RemotePath.display(path)
        return TerminalWidth.truncate(shown, to: 32)
    }
}
