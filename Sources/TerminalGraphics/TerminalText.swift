/// Text that is safe to print and fits a number of terminal columns. File names come from the device, so they
/// are untrusted: an escape character in a name must not reach the terminal.
public enum TerminalText {
    /// `text` with every control character (C0, DEL, C1: ESC, BEL, CR, LF, …) and invisible format character
    /// (bidi overrides, zero-width characters, line/paragraph separators) replaced by `?`.
    public static func sanitize(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate:
                out.append("?")
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Columns `text` takes: 2 for wide (East Asian wide/fullwidth, emoji) characters, 1 for the rest.
    public static func displayWidth(_ text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// `text` cut to at most `width` columns, marking the cut with `…`; a short extension (".JPG") is kept after
    /// the mark so files differing only in type stay distinguishable. Does not sanitize.
    public static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if displayWidth(text) <= width { return text }
        if width == 1 { return "…" }
        var tail = ""
        if let dot = text.lastIndex(of: "."), dot != text.startIndex {
            let ext = String(text[dot...])
            if ext.count <= 5, displayWidth(ext) + 2 <= width { tail = ext }
        }
        let room = width - 1 - displayWidth(tail)
        var head = ""
        var used = 0
        for character in text {
            let w = self.width(of: character)
            if used + w > room { break }
            head.append(character)
            used += w
        }
        return head + "…" + tail
    }

    /// Sanitized, then truncated to `width` columns.
    public static func fit(_ text: String, width: Int) -> String {
        truncate(sanitize(text), toWidth: width)
    }

    /// `text` (already fitted) centred in `width` columns with spaces on both sides.
    static func center(_ text: String, width: Int) -> String {
        let extra = max(0, width - displayWidth(text))
        return String(repeating: " ", count: extra / 2) + text + String(repeating: " ", count: extra - extra / 2)
    }

    static func trimTrailingSpaces(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }

    static func width(of character: Character) -> Int {
        for scalar in character.unicodeScalars {
            if scalar.properties.isEmojiPresentation || isWide(scalar.value) { return 2 }
        }
        return 1
    }

    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
