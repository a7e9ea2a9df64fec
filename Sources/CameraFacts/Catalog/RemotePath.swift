/// Camera paths: as the user types them (`../101MEDIA`, `/DCIM`) and as the catalog keys them
/// (`DCIM/101MEDIA`, "" for the top).
public enum RemotePath {
    /// The catalog path of `typed` (already unescaped) seen from `folder`: a leading `/` starts at the top,
    /// `.` stays, `..` goes up (never above the top), empty parts are ignored.
    public static func resolve(_ typed: String, from folder: String) -> String {
        var parts = typed.hasPrefix("/") ? [] : folder.split(separator: "/").map(String.init)
        for part in typed.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }

    /// The catalog path of a child.
    public static func child(_ name: String, of folder: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }

    /// The parent folder of a catalog path ("" for a top-level name).
    public static func parent(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    }
}
