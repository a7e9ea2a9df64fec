import MediaManager
import TerminalKit

extension RemotePath {
    /// The path as shown to the user: `/` for the top, `/DCIM/100MEDIA` otherwise (made safe to print).
    public static func display(_ path: String) -> String {
        SafeText.display("/" + path)
    }
}
