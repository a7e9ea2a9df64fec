import Foundation

/// A name as GNU `ls` shows it on a terminal (its `shell-escape` quoting): as it is when a shell would read
/// it as one word, else in single quotes (`'My Clip.MP4'`), or double quotes when it holds a single quote
/// and nothing a double quote would expand (`"Bob's.JPG"`). Control characters are escaped by `SafeText`
/// first, so what is printed is always safe.
public enum ShellEscapedName {
    /// `name` quoted when a shell would split or expand it.
    public static func quoted(_ name: String) -> String {
        let safe = SafeText.display(name)
        guard needsQuotes(safe) || safe != name else { return safe }
        if safe.contains("'") && !safe.contains(where: { "\"$`\\!".contains($0) }) { return "\"" + safe + "\"" }
        return "'" + safe.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// True when a shell would not read `name` as one literal word.
    public static func needsQuotes(_ name: String) -> Bool {
        if name.isEmpty { return true }
        if name == "{" || name == "}" { return true }
        if let first = name.first, first == "#" || first == "~" { return true }
        return name.contains { " \t!\"$&'()*;<=>?[\\]^`|".contains($0) }
    }

    /// Names for a listing on a terminal: quoted where needed, and when any is quoted the others get a
    /// leading space so that the names still line up (as GNU `ls` does). `suffixes` (a `/` for a folder)
    /// go after the quotes.
    public static func column(_ names: [String], suffixes: [String]) -> [String] {
        let quoted = names.map(quoted)
        let anyQuoted = zip(quoted, names).contains { $0 != $1 && ($0.first == "'" || $0.first == "\"") }
        return zip(zip(quoted, names), suffixes).map { pair, suffix in
            let (shown, raw) = pair
            let isQuoted = shown != raw && (shown.first == "'" || shown.first == "\"")
            return (anyQuoted && !isQuoted ? " " : "") + shown + suffix
        }
    }
}
