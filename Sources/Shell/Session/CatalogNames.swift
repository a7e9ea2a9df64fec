import MediaManager
import TerminalKit

/// A camera file or folder that a word named, and the text to show for it (the word's folder part as
/// typed, then the name).
public struct RemoteEntry: Sendable, Equatable {
    /// The catalog path ("" for the top folder).
    public let path: String
    /// The catalog's description; nil only for the top folder (and store folders of some cameras).
    public let file: MediaFile?
    public let isFolder: Bool
    /// How the user wrote it, or how a glob's match reads: `100MEDIA/DJI_0001.JPG`.
    public let shown: String
}

/// Finds what words name among the cached catalog's names: literal paths, and globs matched one path
/// part at a time (`*.JPG`, `../1*/DJI_000?.MP4`). Reads only the cache: no device requests.
public struct CatalogNames {
    public let catalog: MediaCatalog
    /// The folder relative names start from.
    public let folder: String

    public init(catalog: MediaCatalog, folder: String) {
        self.catalog = catalog
        self.folder = folder
    }

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

    /// The entry at a literal path typed by the user (already unescaped), or nil.
    public func entry(atTyped typed: String) -> RemoteEntry? {
        let path = RemotePath.resolve(typed, from: folder)
        if path.isEmpty { return RemoteEntry(path: "", file: nil, isFolder: true, shown: typed) }
        if let file = catalog.file(atPath: path) {
            return RemoteEntry(path: path, file: file, isFolder: file.isFolder || catalog.isFolder(path), shown: typed)
        }
        if catalog.isFolder(path) { return RemoteEntry(path: path, file: nil, isFolder: true, shown: typed) }
        return nil
    }

    /// The matches of a glob's source (backslash escapes kept), part by part.
    func expand(_ source: String, ignoringCase: Bool = false) -> [RemoteEntry] {
        let (parts, absolute, foldersOnly) = Self.split(source)
        // (catalog path, shown prefix)
        var current: [(path: String, shown: String)] = [(absolute ? "" : folder, absolute ? "/" : "")]
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            let pattern = GlobPattern(ignoringCase ? part.lowercased() : part)
            var next: [(path: String, shown: String)] = []
            for (path, shown) in current {
                if !pattern.hasWildcards {
                    let name = Self.unescape(part)
                    let child: String
                    switch name {
                    case ".": child = path
                    case "..": child = RemotePath.parent(of: path)
                    default: child = RemotePath.child(name, of: path)
                    }
                    let exists = child.isEmpty || catalog.isFolder(child) || (isLast && catalog.file(atPath: child) != nil)
                    if exists { next.append((child, shown + name + (isLast ? "" : "/"))) }
                    continue
                }
                for file in catalog.contents(of: path) ?? [] {
                    let name = ignoringCase ? file.name.lowercased() : file.name
                    guard pattern.matches(name) else { continue }
                    let childPath = RemotePath.child(file.name, of: path)
                    let isFolder = file.isFolder || catalog.isFolder(childPath)
                    guard isFolder || (isLast && !foldersOnly) else { continue }
                    next.append((childPath, shown + file.name + (isLast ? "" : "/")))
                }
            }
            current = next
            if current.isEmpty { return [] }
        }
        return current.compactMap { path, shown in
            let file = catalog.file(atPath: path)
            let isFolder = path.isEmpty || catalog.isFolder(path) || file?.isFolder == true
            if foldersOnly && !isFolder { return nil }
            return RemoteEntry(path: path, file: file, isFolder: isFolder, shown: shown)
        }
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
