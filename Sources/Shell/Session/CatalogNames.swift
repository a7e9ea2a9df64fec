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
        let (parts, absolute, foldersOnly) = GlobPattern.pathParts(source)
        let compiled = parts.map { part -> Part in
            let pattern = GlobPattern(ignoringCase ? part.lowercased() : part)
            guard pattern.hasWildcards else { return .name(GlobPattern.unescape(part)) }
            return .pattern { pattern.matches(ignoringCase ? $0.lowercased() : $0) }
        }
        return expand(compiled, absolute: absolute, foldersOnly: foldersOnly)
    }
}
