import CommandKit
import MediaManager
import POSIX
import TerminalKit

extension Interpreter {
    /// When unquoted words in a row, joined by spaces, name a file or folder that exists (on the camera,
    /// in the cached catalog, or on this computer): `; did you mean to quote 'My Clip.MP4'?`. Else "".
    /// `fetch My Clip.MP4` reads as two names; the hint says why it failed.
    func quoteHint(_ words: some Collection<Word>) -> String {
        let words = Array(words)
        guard words.count > 1 else { return "" }
        let names = media.map { self.names($0.catalog) }
        for start in words.indices {
            guard !words[start].isQuoted, !CommandTable.looksLikeOption(words[start].text) else { continue }
            var joined = words[start].text
            for next in words.indices.dropFirst(start + 1).prefix(7) {
                guard !words[next].isQuoted, !CommandTable.looksLikeOption(words[next].text) else { break }
                joined += " " + words[next].text
                let onCamera = names?.entry(atTyped: joined) != nil
                if onCamera || LocalDisk.exists(LocalDisk.expandingTilde(joined)) {
                    return "; did you mean to quote \(ShellEscapedName.quoted(joined))?"
                }
            }
        }
        return ""
    }
}
