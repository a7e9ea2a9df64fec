/// The note the shell prints when a `usb:` URL matched several cameras and the first was opened: which one,
/// and the `open` command that reaches each other one.
public enum USBChoiceWords {
    /// `2 USB cameras are attached; opened usb:001,002 ...; 'open usb:serial=B2' opens usb:001,003 ...`: the
    /// `matched` cameras, what the URL named (`selector`, nil for a bare `usb:`), the one `opened`, and each
    /// other one with the URL that names it alone.
    public static func sentence(
        matched: Int, selector: String?, opened: String, alternatives: [(url: String, camera: String)]
    ) -> String {
        let which = selector.map { "match \($0)" } ?? "are attached"
        let rest = alternatives.map { "'open \($0.url)' opens \($0.camera)" }
        return "\(matched) USB cameras \(which); opened \(opened); " + rest.joined(separator: "; ")
    }
}
