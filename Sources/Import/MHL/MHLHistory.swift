import Checksums
import Foundation
import POSIX

/// The ASC MHL history of one root: its `ascmhl` folder, the generations in it (each checked against the
/// chain's C4 ID of its bytes, as `ascmhl` checks them) and the chain. Read whole when it is opened; a new
/// generation is written into it (the generation's file, then the chain naming it) and nothing else, and
/// nowhere but that folder.
public struct MHLHistory: Sendable {
    public let root: String
    /// The generations in the order of their numbers.
    public private(set) var generations: [(number: Int, generation: MHLGeneration)] = []
    private var chain = MHLChain()

    public static let folderName = "ascmhl"
    public var folder: String { root + "/" + Self.folderName }
    public var isEmpty: Bool { generations.isEmpty }

    /// The largest generation file read (a history of a million files is some 400 MB).
    static let maxGenerationBytes = 1 << 30
    /// At most this many generations are read.
    static let maxGenerations = 10_000

    private init(root: String) {
        self.root = root
    }

    /// The history at `root` (an empty one when it has no `ascmhl` folder). An `ascmhl` that is a link or a
    /// file, a generation the chain names that is missing or changed, or one that cannot be read, fails it.
    public static func open(root: String) throws(MHLError) -> MHLHistory {
        var history = MHLHistory(root: root)
        let folder = history.folder
        guard LocalDisk.exists(folder) else { return history }
        guard LocalDisk.isFolderItself(folder) else { throw MHLError(folder, "it is not a folder (a link or a file)") }
        guard let names = LocalDisk.names(in: folder) else { throw MHLError(folder, "the folder cannot be read") }
        let generationNames = names.compactMap { name in number(ofGeneration: name).map { (number: $0, name: name) } }
            .sorted { $0.number < $1.number }
        guard generationNames.count <= maxGenerations else { throw MHLError(folder, "more than \(maxGenerations) generations") }
        let chainPath = folder + "/" + MHLChain.fileName
        let chainBytes: [UInt8]?
        do { chainBytes = try LocalDisk.readWhole(chainPath, limit: 16 << 20) } catch {
            throw MHLError(chainPath, "it cannot be read (\(error))")
        }
        guard let chainBytes else {
            if generationNames.isEmpty { return history }
            throw MHLError(chainPath, "it is missing, while generations are there")
        }
        history.chain = try MHLChain.read(chainBytes, path: chainPath)
        var contents: [String: [UInt8]] = [:]
        for (number, name) in generationNames {
            let path = folder + "/" + name
            let bytes: [UInt8]?
            do { bytes = try LocalDisk.readWhole(path, limit: maxGenerationBytes) } catch {
                throw MHLError(path, "it cannot be read (\(error))")
            }
            guard let bytes else { continue }
            contents[name] = bytes
            history.generations.append((number, try MHLGenerationReader.read(bytes, path: path)))
        }
        for link in history.chain.links {
            guard let bytes = contents[link.fileName] else {
                throw MHLError(folder + "/" + link.fileName, "the chain names generation \(link.number), which is missing")
            }
            guard C4ID.of(bytes) == link.c4 else {
                throw MHLError(folder + "/" + link.fileName, "it was changed since it was written (its C4 ID is not the chain's)")
            }
        }
        return history
    }

    /// The number of a generation's file name (`0001_ROOT_DATE.mhl`: four digits or more, then `_` and
    /// anything); nil for any other name (and for macOS's `._` leftovers).
    static func number(ofGeneration name: String) -> Int? {
        guard name.hasSuffix(".mhl"), !name.hasPrefix("._") else { return nil }
        let stem = name.dropLast(4)
        let digits = stem.prefix { $0.isASCII && $0.isNumber }
        guard digits.count >= 4, digits.count <= 8, digits.count == stem.count || stem.dropFirst(digits.count).hasPrefix("_"),
            let number = Int(digits), number > 0
        else { return nil }
        return number
    }

    /// The number the next generation takes.
    public var nextNumber: Int {
        max(generations.last?.number ?? 0, chain.links.map(\.number).max() ?? 0) + 1
    }

    /// The ignore patterns of the latest generation (those `ascmhl verify` goes by).
    public var latestIgnored: [String] { generations.last?.generation.ignored ?? [] }

    /// Each file's original hash (the first generation's that records one, as `ascmhl verify` reads it; the
    /// first hash of any action when none is an original), in the format quickest to check, with the size
    /// first recorded.
    public func originals() -> [String: (checksum: Checksum, size: UInt64?)] {
        var found: [String: (checksum: Checksum, size: UInt64?)] = [:]
        var fallback: [String: (checksum: Checksum, size: UInt64?)] = [:]
        for (_, generation) in generations {
            for file in generation.files {
                if found[file.path] == nil, let original = Self.quickest(file.hashes.filter { $0.action == .original }) {
                    found[file.path] = (original, file.size ?? fallback[file.path]?.size)
                }
                if fallback[file.path] == nil, let any = Self.quickest(file.hashes) { fallback[file.path] = (any, file.size) }
            }
        }
        return fallback.merging(found) { _, original in original }
    }

    /// The latest hash in `format` of each file, whatever its action: what its bytes were last found to be.
    public func latest(_ format: Checksum.Algorithm) -> [String: Checksum] {
        var latest: [String: Checksum] = [:]
        for (_, generation) in generations {
            for file in generation.files {
                if let hash = file.hashes.last(where: { $0.checksum.algorithm == format }) { latest[file.path] = hash.checksum }
            }
        }
        return latest
    }

    /// The hash of `hashes` quickest to compute: XXH3-128, XXH3-64, XXH64, MD5, SHA-1, then C4.
    static func quickest(_ hashes: [MHLGeneration.Hash]) -> Checksum? {
        let order: [Checksum.Algorithm] = [.xxh128, .xxh3, .xxh64, .md5, .sha1, .c4]
        return order.lazy.compactMap { format in hashes.first { $0.checksum.algorithm == format }?.checksum }.first
    }

    /// The file name of generation `number` made at `date`: `0001_ROOT_2026-12-07_142311Z.mhl`, ROOT the
    /// root folder's name.
    public func fileName(number: Int, date: Date) -> String {
        var rootName = (root as NSString).lastPathComponent
        if rootName.isEmpty || rootName == "/" { rootName = "root" }
        let padded = String(repeating: "0", count: max(0, 4 - String(number).count)) + String(number)
        return padded + "_" + rootName + "_" + MHLDates.fileNameText(date) + ".mhl"
    }

    /// Writes `generation` (its files' elements made already: `MHLGeneration.fileElement`) as number `number`
    /// in `fileName` (replacing what an earlier write of the same generation left), then the chain with it;
    /// each file replaced atomically, flushed when `durable`.
    mutating func write(
        _ generation: MHLGeneration, fileElements: [String], number: Int, fileName: String, durable: Bool
    ) throws {
        if !LocalDisk.exists(folder) { try ImportError.onDisk { try LocalDisk.makeDirectory(folder, within: root) } }
        guard LocalDisk.isFolderItself(folder) else { throw MHLError(folder, "it is not a folder (a link or a file)") }
        let bytes = generation.xml(fileElements: fileElements)
        try ImportError.onDisk { try LocalDisk.writeAtomically(bytes, to: folder + "/" + fileName, durable: durable) }
        chain.links.removeAll { $0.number == number }
        chain.links.append(MHLChain.Link(number: number, fileName: fileName, c4: C4ID.of(bytes)))
        chain.links.sort { $0.number < $1.number }
        let chainPath = folder + "/" + MHLChain.fileName
        try ImportError.onDisk { try LocalDisk.writeAtomically(chain.xml(), to: chainPath, durable: durable) }
        generations.removeAll { $0.number == number }
        generations.append((number, generation))
    }
}
