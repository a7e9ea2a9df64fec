import Checksums
import Foundation
import POSIX

/// The generation one run (an import, a re-check) adds to the ASC MHL history of one root: its number and
/// file name fixed when it begins, the files added as they are proven, written again as it grows (the
/// generation, then the chain), and at the end with the folders' hashes. Its ignore patterns are the
/// history's latest with ours added, so that `ascmhl verify` passes over what an import leaves beside the
/// copies (manifests, `.part`s).
public struct MHLNewGeneration: Sendable {
    /// The root as the caller named it (`.`, a relative path); the history is at its absolute path.
    public let root: String
    private var history: MHLHistory
    private var generation: MHLGeneration
    private let number: Int
    public let fileName: String
    /// The hash each file was first recorded with (a file imported again is `verified`, not a new original).
    private let originals: [String: Checksum]
    /// How many files it recorded when it was last written.
    private var writtenCount = 0
    /// Where each file's record is in `generation.files`, by its path (a re-check records thousands).
    private var indexOfPath: [String: Int] = [:]
    /// Each file's `<hash>` element, in `generation.files`' order, made as the file is recorded.
    private var fileElements: [String] = []

    /// Opens the history at `root` (failing as `MHLHistory.open` does) for a generation made now.
    public init(root: String, creator: MHLCreator, process: MHLGeneration.Process, date: Date = Date()) throws(MHLError) {
        self.root = root
        history = try MHLHistory.open(root: Self.absolute(root))
        var ignored = history.latestIgnored
        for pattern in MHLGeneration.ignoredByDefault where !ignored.contains(pattern) { ignored.append(pattern) }
        generation = creator.generation(process, ignoring: ignored, at: date)
        number = history.nextNumber
        fileName = history.fileName(number: number, date: date)
        originals = history.originals().mapValues(\.checksum)
    }

    public var path: String { history.folder + "/" + fileName }
    public var isEmpty: Bool { generation.files.isEmpty }
    /// Enough files added since it was last written to write it again: a quarter of those written (at
    /// least one), so that the writes of a long run, each of the whole generation, cost some five times
    /// its final size, not the square of it (a write per group of 256 files: some 8 GB for 100,000 files).
    public var isDueForWrite: Bool {
        generation.files.count - writtenCount >= max(1, writtenCount / 4)
    }

    /// The files this history records, with their original hashes and sizes.
    public var recorded: [String: (checksum: Checksum, size: UInt64?)] { history.originals() }

    /// Records the file at `path` (under the root) with `checksum`: its original hash, or, when the history
    /// has it already, `verified` if the hash is the one recorded and `failed` if not. Its size and time are
    /// read from the disk. A path not under the root, or a hash ASC MHL has no name for, is not recorded.
    public mutating func add(_ path: String, _ checksum: Checksum, date: Date = Date()) {
        guard MHLGeneration.formats.contains(checksum.algorithm), let relative = relativePath(path) else { return }
        let action: MHLGeneration.Action
        if let original = originals[relative], original.algorithm == checksum.algorithm {
            action = original == checksum ? .verified : .failed
        } else {
            action = .original
        }
        add(relative: relative, checksum, action: action, date: date)
    }

    /// Records the file at `relative` with `checksum` and `action`.
    public mutating func add(relative: String, _ checksum: Checksum, action: MHLGeneration.Action, date: Date = Date()) {
        let full = history.root + "/" + relative
        let modified = LocalDisk.modificationTime(full).map { Date(timeIntervalSince1970: $0.rounded(.down)) }
        let hash = MHLGeneration.Hash(checksum, action: action, date: date)
        if let index = indexOfPath[relative] {
            generation.files[index].hashes.removeAll { $0.checksum.algorithm == checksum.algorithm }
            generation.files[index].hashes.append(hash)
            fileElements[index] = MHLGeneration.fileElement(generation.files[index])
        } else {
            indexOfPath[relative] = generation.files.count
            let file = MHLGeneration.File(path: relative, size: LocalDisk.regularFileSize(full), modified: modified, hashes: [hash])
            generation.files.append(file)
            fileElements.append(MHLGeneration.fileElement(file))
        }
    }

    /// True when `path` is under the root.
    public func holds(_ path: String) -> Bool { relativePath(path) != nil }

    /// `path` relative to the root; nil when it is not under it. Both are made absolute first: a pattern
    /// `%f` has the root `.` and copies at `DSC_0001.JPG`.
    func relativePath(_ path: String) -> String? {
        let root = history.root
        let path = Self.absolute(path)
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard path.hasPrefix(prefix) else { return nil }
        let relative = String(path.dropFirst(prefix.count))
        return MHLPath.isSafe(relative) ? relative : nil
    }

    /// Writes the generation as it is so far (nothing while it records no file); flushed when `durable`.
    public mutating func write(durable: Bool = false) throws {
        guard !generation.files.isEmpty else { return }
        try history.write(generation, fileElements: fileElements, number: number, fileName: fileName, durable: durable)
        writtenCount = generation.files.count
    }

    /// Adds the hashes of the folders holding the files recorded (and of the root) that can be worked out
    /// from the hashes the history and this generation know, then writes it, flushed.
    public mutating func finish() throws {
        guard !generation.files.isEmpty else { return }
        var known = history.latest(.xxh128)
        for file in generation.files {
            if let hash = file.hashes.first(where: { $0.checksum.algorithm == .xxh128 }) { known[file.path] = hash.checksum }
        }
        let folders = Set(generation.files.map { file in
            file.path.lastIndex(of: "/").map { String(file.path[..<$0]) } ?? ""
        })
        let root = history.root
        let hashes = MHLFolderHashes(root: root, known: known, ignored: generation.ignored, format: .xxh128).hashes(of: folders) ?? [:]
        generation.folders = hashes.keys.filter { !$0.isEmpty }.sorted().map { folder in
            let pair = hashes[folder]!
            return MHLGeneration.FolderHash(
                path: folder, modified: LocalDisk.modificationTime(root + "/" + folder).map { Date(timeIntervalSince1970: $0.rounded(.down)) },
                content: Checksum(.xxh128, hex: Self.hex(pair.content)), structure: Checksum(.xxh128, hex: Self.hex(pair.structure)))
        }
        generation.rootHash = hashes[""].map { pair in
            MHLGeneration.FolderHash(
                path: "", modified: nil, content: Checksum(.xxh128, hex: Self.hex(pair.content)),
                structure: Checksum(.xxh128, hex: Self.hex(pair.structure)))
        }
        try write(durable: true)
    }

    /// `path` from the current folder, its `.` and empty parts dropped and each `..` taking the part before
    /// (as written: links are not followed).
    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in full.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }
}
