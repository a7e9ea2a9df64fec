import Checksums
import Foundation
import POSIX

/// The one clash policy of `fetch` and `import`, within one run and across runs: a file already at the
/// destination with the same content (same size and a modification time within two seconds of the
/// capture time, or the checksum the ledger recorded) is already there; a different file keeps its name
/// and the new one gets a unique name (`NAME (2).JPG`); `overwrite` (`--force`) replaces it instead.
/// A `.part` at a free name is an earlier attempt, continued.
public struct ClashResolver: Sendable {
    /// Paths given out in this run, lowercased (as on a FAT card or a Mac, names differing only in case
    /// collide).
    private var reserved: Set<String> = []
    /// The names in each folder a candidate was in, lowercased, read once (one readdir): a name not among
    /// them, nor its `.part`, is free without a lookup of its own (a fetch or an import into a new or
    /// sparse folder makes no lookup per file). A name that is, or any in a folder that could not be read
    /// (nil), is looked up as before. Lowercased as `reserved` is: on a filesystem where case does not
    /// count, a name differing only in case is looked up, and found.
    private var folderNames: [String: Set<String>?] = [:]
    public var overwrite: Bool

    public init(overwrite: Bool = false) { self.overwrite = overwrite }

    /// Where one file should be written.
    public enum Placement: Sendable, Equatable {
        /// A free name; `partBytes` is what an earlier attempt's `.part` holds (0 for none).
        case write(path: String, partBytes: UInt64)
        /// The same file is there already.
        case alreadyThere(path: String)
        /// Replaces a different file (`--force`).
        case overwrite(path: String)

        public var path: String {
            switch self {
            case .write(let p, _), .alreadyThere(let p), .overwrite(let p): p
            }
        }
    }

    /// The placement for a file of `size` bytes captured at `captured` whose pattern says `desired`;
    /// `renamed` tells whether it had to move off that name. `knownHash` is the checksum the ledger has for
    /// this object, used when size matches but the time does not. Without `measuringPart` a free name's
    /// `.part` is not looked at (`partBytes` 0): for a caller whose download reads it from the open file.
    public mutating func place(
        _ desired: String, size: UInt64, captured: Date?, knownHash: Checksum? = nil, measuringPart: Bool = true,
        orCaptured: (() -> Date?)? = nil
    ) -> (placement: Placement, renamed: Bool) {
        var attempt = 1
        while true {
            let candidate = attempt == 1 ? desired : Self.numbered(desired, attempt)
            attempt += 1
            let key = candidate.lowercased()
            if reserved.contains(key) { continue }
            if mightBeThere(candidate), LocalDisk.exists(candidate) {
                guard let existing = LocalDisk.regularFileSize(candidate) else { continue }  // a folder or a link: never touched
                if existing == size
                    && (Self.sameContent(candidate, captured: captured, knownHash: knownHash)
                        || orCaptured.map { Self.sameContent(candidate, captured: $0(), knownHash: nil) } == true)
                {
                    reserved.insert(key)
                    return (.alreadyThere(path: candidate), attempt > 2)
                }
                if overwrite {
                    reserved.insert(key)
                    return (.overwrite(path: candidate), attempt > 2)
                }
                continue
            }
            reserved.insert(key)
            let partPath = candidate + ".part"
            let part = measuringPart && mightBeThere(partPath) ? LocalDisk.regularFileSize(partPath) ?? 0 : 0
            return (.write(path: candidate, partBytes: part <= size ? part : 0), attempt > 2)
        }
    }

    /// False when `path`'s folder, as read the first time one of its names was asked about, has no name
    /// like it.
    private mutating func mightBeThere(_ path: String) -> Bool {
        let folder = LocalDisk.parentFolder(of: path)
        let names: Set<String>?
        if let known = folderNames[folder] {
            names = known
        } else {
            names = LocalDisk.names(in: folder).map { Set($0.map { $0.lowercased() }) }
            folderNames[folder] = .some(names)
        }
        guard let names else { return true }
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        return names.contains(name.lowercased())
    }

    /// Same size and a modification time within two seconds of the capture, or the recorded hash.
    static func sameContent(_ path: String, captured: Date?, knownHash: Checksum?) -> Bool {
        if let captured, let mtime = LocalDisk.modificationTime(path), abs(mtime - captured.timeIntervalSince1970) < 2 {
            return true
        }
        guard let knownHash, let size = LocalDisk.regularFileSize(path) else { return false }
        let hash = knownHash.algorithm.makeHasher()
        guard (try? LocalDisk.readPrefix(path, count: size, { hash.update($0) })) != nil else { return false }
        return hash.hexDigest() == knownHash.hex
    }

    /// "DIR/NAME (N).EXT" for "DIR/NAME.EXT": the name a file takes when a different one has its own.
    public static func numberedPath(_ path: String, _ n: Int) -> String { numbered(path, n) }

    /// "DIR/NAME (N).EXT" for "DIR/NAME.EXT".
    static func numbered(_ path: String, _ n: Int) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        var candidateStem = stem
        let suffix = " (\(n))"
        while (candidateStem + suffix + ext).utf8.count > 255, !candidateStem.isEmpty { candidateStem.removeLast() }
        return folder + candidateStem + suffix + ext
    }
}
