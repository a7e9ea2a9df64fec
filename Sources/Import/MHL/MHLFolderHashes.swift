import Checksums
import Foundation
import POSIX

#if canImport(Glibc)
    import Glibc
#endif

/// The two hashes ASC MHL gives a folder, worked out from the hashes of the files below it (never by reading
/// them again): its content hash, the hash of its children's hashes (files' hashes, folders' content
/// hashes) put in order and joined as bytes; and its structure hash, the same over the hash of each child's
/// name joined with its hash (a folder's structure hash), so that a rename changes it. A folder whose
/// every file below is not known (a file the history does not record, a link) gets none, nor do the folders
/// above it: they are optional, and a wrong one is worse than none.
struct MHLFolderHashes {
    let root: String
    /// Each file's hash, by its path relative to the root.
    let known: [String: Checksum]
    /// The history's ignore patterns: names the hashes leave out.
    let ignored: [String]
    let format: Checksum.Algorithm

    struct Pair {
        var content: [UInt8]
        var structure: [UInt8]
    }

    /// The hashes of `folders` (relative paths, "" the root) and each of their folders above, worked out in
    /// one walk of each; nil for those that cannot be. Nil for all when an ignore pattern is one this
    /// cannot apply (anything but a name pattern).
    func hashes(of folders: Set<String>) -> [String: Pair]? {
        guard format != .c4, format != .sha256, ignored.allSatisfy(Self.isNamePattern) else { return nil }
        var wanted = Set<String>()
        for folder in folders {
            var path = folder
            while true {
                wanted.insert(path)
                guard let slash = path.lastIndex(of: "/") else { break }
                path = String(path[..<slash])
            }
            wanted.insert("")
        }
        var results: [String: Pair] = [:]
        _ = walk("", depth: 0, wanted: wanted, into: &results)
        return results
    }

    /// The pair of the folder at `relative`, recording each wanted folder's on the way; nil when it cannot
    /// be worked out. Every subfolder is walked (a parent's hashes need all of them), even after one failed.
    private func walk(_ relative: String, depth: Int, wanted: Set<String>, into results: inout [String: Pair]) -> Pair? {
        // A tree deeper than any card's gets no hashes, rather than a thread's stack used up.
        guard depth < Self.maxDepth else { return nil }
        let path = relative.isEmpty ? root : root + "/" + relative
        guard let names = LocalDisk.names(in: path) else { return nil }
        var whole = true
        var contents: [[UInt8]] = []
        var structures: [[UInt8]] = []
        for name in names {
            let child = relative.isEmpty ? name : relative + "/" + name
            let isFolder = LocalDisk.isFolderItself(root + "/" + child)
            if isIgnored(name, isFolder: isFolder) { continue }
            if isFolder {
                if let pair = walk(child, depth: depth + 1, wanted: wanted, into: &results) {
                    contents.append(pair.content)
                    structures.append(digest(Array(name.utf8) + pair.structure))
                } else {
                    whole = false
                }
            } else if LocalDisk.regularFileSize(root + "/" + child) != nil, let hash = known[child], hash.algorithm == format, let bytes = Self.bytes(ofHex: hash.hex) {
                contents.append(bytes)
                structures.append(digest(Array(name.utf8) + bytes))
            } else {
                whole = false
            }
        }
        guard whole else { return nil }
        let pair = Pair(content: digest(joinedInOrder(contents)), structure: digest(joinedInOrder(structures)))
        if wanted.contains(relative) { results[relative] = pair }
        return pair
    }

    /// How deep below the root folders are walked.
    static let maxDepth = 64

    /// The hashes in the order of their hex text (bytes compared as numbers, which is the same), joined.
    private func joinedInOrder(_ hashes: [[UInt8]]) -> [UInt8] {
        hashes.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 }
    }

    private func digest(_ bytes: [UInt8]) -> [UInt8] {
        let hash = format.makeHasher()
        hash.update(bytes)
        return Self.bytes(ofHex: hash.hexDigest()) ?? []
    }

    private func isIgnored(_ name: String, isFolder: Bool) -> Bool {
        ignored.contains { pattern in
            var pattern = pattern
            if pattern.hasSuffix("/") {
                guard isFolder else { return false }
                pattern.removeLast()
            }
            return fnmatch(pattern, name, 0) == 0
        }
    }

    /// A pattern that names files by their name alone (`*.part`, `ascmhl/`), which is all this applies.
    static func isNamePattern(_ pattern: String) -> Bool {
        let body = pattern.hasSuffix("/") ? String(pattern.dropLast()) : pattern
        return !body.isEmpty && !body.contains("/") && !body.hasPrefix("!") && !body.hasPrefix("#") && !body.contains("**")
            && !body.contains("\\")
    }

    static func bytes(ofHex hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 48...57: digit - 48
        case 97...102: digit - 87
        case 65...70: digit - 55
        default: nil
        }
    }
}
