/// Finds what names and patterns name among the cached catalog's names: literal paths, and patterns
/// matched one path part at a time (`../1*/DJI_000?.MP4`). Reads only the cache: no device requests.
public struct CatalogNames {
    public let catalog: MediaCatalog
    /// The folder relative names start from.
    public let folder: String
    /// The catalog paths of the rows of the last numbered listing, `#1` first, which file numbers name;
    /// nil when nothing was numbered yet.
    public var numbered: [String]?

    public init(catalog: MediaCatalog, folder: String, numbered: [String]? = nil) {
        self.catalog = catalog
        self.folder = folder
        self.numbered = numbered
    }

    /// How a path is written from `folder`: its name when it is in `folder`, else from the top
    /// (`/DCIM/101MEDIA/DJI_0001.JPG`), so that the word names it wherever it was listed.
    public func typed(_ path: String) -> String {
        let parent = RemotePath.parent(of: path)
        guard parent == folder, !path.isEmpty else { return "/" + path }
        return String(path.dropFirst(parent.isEmpty ? 0 : parent.count + 1))
    }

    /// One part of a path pattern, between two slashes.
    public enum Part {
        /// A name as it is (`.` and `..` included).
        case name(String)
        /// The names of a folder's contents it matches.
        case pattern((String) -> Bool)
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

    /// The matches of a path pattern, part by part: from the top when `absolute`, else from `folder`; only
    /// folders when `foldersOnly` (a trailing slash). A part before the last names folders only.
    public func expand(_ parts: [Part], absolute: Bool, foldersOnly: Bool) -> [RemoteEntry] {
        // (catalog path, shown prefix)
        var current: [(path: String, shown: String)] = [(absolute ? "" : folder, absolute ? "/" : "")]
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            var next: [(path: String, shown: String)] = []
            for (path, shown) in current {
                switch part {
                case .name(let name):
                    let child: String
                    switch name {
                    case ".": child = path
                    case "..": child = RemotePath.parent(of: path)
                    default: child = RemotePath.child(name, of: path)
                    }
                    let exists = child.isEmpty || catalog.isFolder(child) || (isLast && catalog.file(atPath: child) != nil)
                    if exists { next.append((child, shown + name + (isLast ? "" : "/"))) }
                case .pattern(let matches):
                    for file in catalog.contents(of: path) ?? [] where matches(file.name) {
                        let childPath = RemotePath.child(file.name, of: path)
                        let isFolder = file.isFolder || catalog.isFolder(childPath)
                        guard isFolder || (isLast && !foldersOnly) else { continue }
                        next.append((childPath, shown + file.name + (isLast ? "" : "/")))
                    }
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
}

/// The files below folders of the catalog, each with the path it is shown by (relative to where the
/// listing started), depth first in name order.
public enum FileTree {
    public static func files(under folder: String, shownUnder prefix: String, in catalog: MediaCatalog) -> [RemoteEntry] {
        var result: [RemoteEntry] = []
        var stack: [(path: String, shown: String)] = [(folder, prefix)]
        var seen = Set<String>()
        while let (path, shown) = stack.popLast() {
            guard seen.insert(path).inserted else { continue }
            let children = catalog.contents(of: path) ?? []
            var folders: [(String, String)] = []
            for file in children {
                let child = RemotePath.child(file.name, of: path)
                let childShown = shown + file.name
                if file.isFolder || catalog.isFolder(child) {
                    folders.append((child, childShown + "/"))
                } else {
                    result.append(RemoteEntry(path: child, file: file, isFolder: false, shown: childShown))
                }
            }
            stack += folders.reversed()
        }
        return result
    }
}
