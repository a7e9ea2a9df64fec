import CommandKit
import MediaManager
import TerminalKit

/// What words name among the catalog's names (`CatalogNames`): a literal name, a glob matched one path
/// part at a time (`*.JPG`, `../1*/DJI_000?.MP4`), or rows of the last numbered listing (`#3`, `#1-5`).
extension CatalogNames {
    /// Everything `word` names: one entry for a literal name, every match for a glob, each row numbered.
    /// A name that does not exist, a glob that matches nothing and a number past the listing are errors.
    public func entries(for word: Word) throws(CommandError) -> [RemoteEntry] {
        let numbers: FileNumbers?
        do {
            numbers = try FileNumbers(word)
        } catch {
            throw CommandError(error.description)
        }
        if let numbers { return try entries(numbered: numbers, as: word.text) }
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

    /// The rows `numbers` name, each as it is written from the current folder.
    func entries(numbered numbers: FileNumbers, as text: String) throws(CommandError) -> [RemoteEntry] {
        let shown = SafeText.display(text)
        guard let numbered else {
            throw CommandError("\(shown): nothing is numbered yet ('ls -n' numbers the rows it lists, as 'set numbers on' does for every ls)")
        }
        guard numbers.highest <= numbered.count else {
            let rows = numbered.isEmpty ? "no rows" : numbered.count == 1 ? "one row, #1" : "\(numbered.count) rows, #1-\(numbered.count)"
            throw CommandError("\(shown): the last numbered listing has \(rows)")
        }
        return try numbers.numbers.map { number throws(CommandError) in
            let path = numbered[number - 1]
            let typed = typed(path)
            guard let entry = entry(atTyped: typed) ?? (path.isEmpty ? nil : entry(atTyped: "/" + path)) else {
                throw CommandError("#\(number) (\(SafeText.display(typed))) is no longer on the camera")
            }
            return entry
        }
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
