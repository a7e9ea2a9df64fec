/// Writes names so that the tokenizer reads them back unchanged: backslashes outside quotes,
/// or the escapes each kind of quote needs.
public enum ShellQuoting {
    /// Characters the grammar treats specially outside quotes.
    static let specials: Set<Unicode.Scalar> = [" ", "\t", "\n", "\r", "\\", "'", "\"", ";", "*", "?", "["]

    /// `name` with a backslash before each special character: `My\ Photo.jpg`. A `#` is escaped only at the
    /// start of a word, where it would begin a comment.
    public static func escape(_ name: String, atWordStart: Bool = true) -> String {
        var result = ""
        for (index, scalar) in name.unicodeScalars.enumerated() {
            if specials.contains(scalar) || (scalar == "#" && index == 0 && atWordStart) {
                result.unicodeScalars.append("\\")
            }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// `text` as it must appear inside double quotes: `"`, `\` and `$` get a backslash.
    public static func escapeInDoubleQuotes(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" || scalar == "$" { result.unicodeScalars.append("\\") }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// `text` as it must appear inside single quotes: each `'` closes, escapes and reopens (`'\''`).
    public static func escapeInSingleQuotes(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar == "'" { result += "'\\''" } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
