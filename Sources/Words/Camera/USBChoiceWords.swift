import Connectors

/// The note the shell prints when a `usb:` URL matched several cameras and the first was opened: which one,
/// and the `open` command that reaches each other one.
public enum USBChoiceWords {
    /// `2 USB cameras are attached; opened usb:001,002 ...; 'open usb:serial=B2' opens usb:001,003 ...`.
    public static func sentence(for choice: USBCameraChoice) -> String {
        let which = choice.selectorText.map { "match \($0)" } ?? "are attached"
        let rest = choice.alternatives.map { "'open \($0.url)' opens \($0.camera)" }
        return "\(choice.matched) USB cameras \(which); opened \(choice.openedCamera); " + rest.joined(separator: "; ")
    }
}
