import Foundation

/// Lists folders on this computer for completion of local paths (`fetch -o`, `lcd`, `source`).
public enum LocalFiles {
    /// The entries of `folder` (as typed: empty, `sub/`, `/tmp/`, `~/`), relative to `base` or to the current
    /// directory; an unreadable folder gives an empty index. Symbolic links to folders count as folders.
    public static func index(ofFolder folder: String, relativeTo base: String? = nil) -> NameIndex {
        let path = resolve(folder, relativeTo: base)
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: path) else { return .empty }
        let directory = URL(fileURLWithPath: path, isDirectory: true)
        return NameIndex(
            names.map { name in
                var isFolder: ObjCBool = false
                let exists = manager.fileExists(
                    atPath: directory.appendingPathComponent(name).path, isDirectory: &isFolder)
                return CompletionEntry(name, isFolder: exists && isFolder.boolValue)
            })
    }

    /// The absolute path of `folder` as typed, expanding a leading `~`.
    static func resolve(_ folder: String, relativeTo base: String?) -> String {
        var folder = folder
        if folder == "~" || folder.hasPrefix("~/") {
            folder = NSHomeDirectory() + folder.dropFirst()
        }
        if folder.hasPrefix("/") { return folder }
        let base = base ?? FileManager.default.currentDirectoryPath
        return folder.isEmpty ? base : base + "/" + folder
    }
}
