import TerminalKit

/// A camera URL inside a message. A URL that ends with its scheme's colon (`usb:`, `sim:`) is quoted, so
/// that `cannot open 'usb:': 2 USB cameras are attached` does not read as `usb::`.
public enum URLText {
    public static func inMessage(_ url: String) -> String {
        let shown = SafeText.display(url)
        return shown.hasSuffix(":") ? "'\(shown)'" : shown
    }
}
