import MediaManager
import TerminalKit

/// What words name among the catalog's names (`CatalogNames`): a literal name, or a glob matched one
/// path part at a time (`*.JPG`, `../1*/DJI_000?.MP4`).
extension CatalogNames {
    /// Everything `word` names: one entry for a literal name, every match for a glob.
    /// A name that does not exist and a glob that matches nothing are errors, as in a shell.
    public func entries(for word: Word) throws(CommandError) -> [RemoteEntry] {
        guard let glob = word.glob else {
            guard let entry = entry(atTyped: word.text) else {
                throw CommandError("no such file or folder: \(SafeText.display(word.text))")
            }
            return [entry]
        }
        let matches = expand(glob.source)
        if matches.isEmpty {
            var message = "no match for '\(SafeText.display(word.text))'"
            if !expand(glob.source, ignoringCase: true).isEmpty { message += " (names are case-sensitive)" }
            throw CommandError(message)
        }
        return matches
    }

    /// Every entry the words name, in order, each path once.
    public func entries(for words: [Word]) throws(CommandError) -> [RemoteEntry] {
        var seen = Set<String>()
        var result: [RemoteEntry] = []
        for word in words {
            for entry in try entries(for: word) where seen.insert(entry.path).inserted { result.append(entry) }
        }
        return result
    }

    /// The matches of a glob's source (backslash escapes kept), part by part.
    func expand(_ source: String, ignoringCase: Bool = false) -> [RemoteEntry] {
        let (parts, absolute, foldersOnly) = Self.split(source)
        let compiled = parts.map { part -> Part in
            let pattern = GlobPattern(ignoringCase ? part.lowercased() : part)
            guard pattern.hasWildcards else { return .name(Self.unescape(part)) }
            return .pattern { pattern.matches(ignoringCase ? $0.lowercased() : $0) }
        }
        return expand(compiled, absolute: absolute, foldersOnly: foldersOnly)
    }

    /// Splits a glob source at its unescaped slashes: the parts, whether it started at the top, and
    /// whether a trailing slash asks for folders only.
    static func split(_ source: String) -> (parts: [String], absolute: Bool, foldersOnly: Bool) {
        var parts: [String] = []
        var part = ""
        var escaping = false
        for character in source {
            if escaping {
                part.append(character)
                escaping = false
            } else if character == "\\" {
                part.append(character)
                escaping = true
            } else if character == "/" {
                if !part.isEmpty { parts.append(part) }
                part = ""
            } else {
                part.append(character)
            }
        }
        if !part.isEmpty { parts.append(part) }
        if parts.isEmpty { parts = ["."] }
        return (parts, source.hasPrefix("/"), source.hasSuffix("/") && source.count > 1)
    }

    /// A pattern part without its escapes: `a\*b` is the name `a*b`.
    static func unescape(_ text: String) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if !escaping && character == "\\" {
                escaping = true
                continue
            }
            escaping = false
            result.append(character)
        }
        return result
    }
}
