/// Turns a file name that came from a device into one that is safe to create in a local folder:
/// no path separators, no `.`/`..`, no leading dot (hidden files), no NUL or control characters,
/// at most 255 bytes. The extension is kept where it can be.
public enum LocalFileName {
    public static let maximumBytes = 255

    public static func sanitize(_ deviceName: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in deviceName.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x2F /* / */, 0x5C /* \ */, 0x2028, 0x2029:
                scalars.append("_")
            default:
                scalars.append(scalar)
            }
        }
        var name = String(scalars).trimmingWhitespace()
        if name.isEmpty { return "unnamed" }
        if name.allSatisfy({ $0 == "." }) { name = String(repeating: "_", count: max(name.count, 1)) }
        if name.hasPrefix(".") { name = "_" + name.dropFirst() }
        return truncate(name)
    }

    /// Cuts a name to `maximumBytes` UTF-8 bytes, keeping a short extension.
    package static func truncate(_ name: String) -> String {
        guard name.utf8.count > maximumBytes else { return name }
        var ext = ""
        if let dot = name.lastIndex(of: "."), name.distance(from: dot, to: name.endIndex) <= 16 {
            ext = String(name[dot...])
        }
        var stem = String(name.dropLast(ext.count))
        while stem.utf8.count + ext.utf8.count > maximumBytes { stem.removeLast() }
        return stem + ext
    }

    /// Gives each device name a distinct safe local name: collisions (after sanitizing, and
    /// case-insensitively, as on a FAT card or a Mac) get " (2)", " (3)" before the extension.
    public static func uniqueNames(for deviceNames: [String]) -> [String] {
        var taken = Set<String>()
        return deviceNames.map { original in
            let safe = sanitize(original)
            var candidate = safe
            var n = 2
            while taken.contains(candidate.lowercased()) {
                let dot = safe.lastIndex(of: ".").flatMap { $0 == safe.startIndex ? nil : $0 }
                let stem = dot.map { String(safe[..<$0]) } ?? safe
                let ext = dot.map { String(safe[$0...]) } ?? ""
                candidate = truncate("\(stem) (\(n))\(ext)")
                n += 1
            }
            taken.insert(candidate.lowercased())
            return candidate
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
