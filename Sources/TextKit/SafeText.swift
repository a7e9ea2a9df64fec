/// Makes untrusted text (device file names, user input) safe to print on a terminal.
public enum SafeText {
    /// `text` with control characters and bidirectional overrides written as visible escapes
    /// (`\x1b`, `\u{202E}`), so nothing a name holds can move the cursor or recolour the screen.
    public static func display(_ text: String) -> String {
        // Printable ASCII, as most names are, is safe as it is: one pass over the bytes says so.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) { return text }
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if !isUnsafe(scalar) {
                result.unicodeScalars.append(scalar)
            } else if scalar.value < 0x80 {
                let hex = String(scalar.value, radix: 16)
                result += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            } else {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F..<0xA0: true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F: true
        default: false
        }
    }
}
