import Foundation

/// Gives every object of a folder a name of its own in the catalog, so that each is reachable by path,
/// glob and completion, even when the device repeats a name or gives one that cannot be a path component
/// (empty, `.`, `..`, holding `/` or NUL). The device's own name is kept in `MediaFile.deviceName`.
enum CatalogNaming {
    /// `files` with their names made usable and distinct (exactly: case variants stay as they are),
    /// the later of two equal names getting " (2)", " (3)" before the extension. `taken` are names
    /// already used in the folder.
    static func distinct(_ files: [MediaFile], taken: Set<String> = []) -> [MediaFile] {
        var files = files
        makeDistinct(&files, taken: taken)
        return files
    }

    /// `distinct`, in place (a folder of 100,000 files is not copied).
    static func makeDistinct(_ files: inout [MediaFile], taken: Set<String> = []) {
        var used = taken
        used.reserveCapacity(taken.count + files.count)
        for index in files.indices {
            let name = files[index].name  // the name only: a whole record's copy per file adds up
            let usable = usableName(name)
            var candidate = usable
            var n = 2
            while used.contains(candidate) {
                candidate = numbered(usable, n)
                n += 1
            }
            used.insert(candidate)
            if candidate != name {
                files[index].deviceName = files[index].deviceName ?? name
                files[index].name = candidate
            }
        }
    }

    /// The name itself when it can be a path component, else its sanitized form.
    static func usableName(_ name: String) -> String {
        isUsable(name) ? name : LocalFileName.sanitize(name)
    }

    /// True when `name` can be a path component as it is.
    static func isUsable(_ name: String) -> Bool {
        // By bytes: a "/" or a NUL is one byte in UTF-8, and a folder of 100,000 names asks for each.
        !(name.isEmpty || name == "." || name == ".." || name.utf8.contains { $0 == UInt8(ascii: "/") || $0 == 0 })
    }

    /// True when every name is usable and each sorts after the one before by its bytes: the names are
    /// then distinct and in the catalog's order, and `makeDistinct` and a sort would change nothing.
    static func areUsableAndAscending(_ files: [MediaFile]) -> Bool {
        var previous: String?
        for i in files.indices {
            let name = files[i].name
            guard isUsable(name) else { return false }
            if let previous, !bytesPrecede(previous, name) { return false }
            previous = name
        }
        return true
    }

    /// True when two files have the same stem (the name before its last dot, the whole name when that
    /// dot starts it), ignoring case: `DJI_0042.MP4` and `dji_0042.srt`. ASCII names are compared in
    /// place, without a String made for each: `group(of:)` asks once per file of a folder, for every file
    /// fetched (2,194 files took 1.2 s of lowercased stems). Other names as `lowercased()` compares them.
    static func sameStem(_ first: MediaFile, _ second: MediaFile) -> Bool {
        var a = first.name
        var b = second.name
        let ascii: Bool? = a.withUTF8 { x in
            b.withUTF8 { y in
                let i = stemLength(x)
                guard i == stemLength(y) else { return x.allSatisfy { $0 < 0x80 } && y.allSatisfy { $0 < 0x80 } ? false : nil }
                for k in 0..<i {
                    let (p, q) = (x[k], y[k])
                    if p >= 0x80 || q >= 0x80 { return nil }
                    if p != q && lowerASCII(p) != lowerASCII(q) { return false }
                }
                return true
            }
        }
        if let ascii { return ascii }
        return first.stem.lowercased() == second.stem.lowercased()
    }

    /// The bytes of a name's stem: up to its last dot, unless that dot is its first byte.
    private static func stemLength(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != 0 else { return name.count }
        return dot
    }

    private static func lowerASCII(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// True when `a` sorts before `b` by their UTF-8 bytes, the catalog's order (`String`'s own `<`
    /// compares by Unicode's canonical order, which is not it). Compares the bytes in place.
    static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order < 0 || (order == 0 && x.count < y.count)
            }
        }
    }

    static func numbered(_ name: String, _ n: Int) -> String {
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        return LocalFileName.truncate("\(stem) (\(n))\(ext)")
    }
}
