import Checksums
import Foundation
import POSIX

/// The checksums of the files one import wrote into a destination, in a file at the destination's root
/// that the standard tool checks: one line per file, `XXH128  PATH`, the path relative to the root, as
/// `xxhsum -H2` prints them; `cd ROOT && xxhsum -c mediashell-import-2026-12-02_114102.xxh128` checks every
/// copy (bit rot, a drive that lies), wherever the folder was copied to since. Rewritten (atomically) as
/// each group of files is committed, so an import cut short leaves the manifest of what it wrote; flushed
/// to the disk once, at the end of the run (an fsync per group cost a third of an import of 1,000 photos;
/// the ledger, flushed with each group, is what the next import trusts).
public struct ImportManifest: Sendable {
    /// Where the manifest is written.
    public let path: String
    /// The folder its paths are relative to.
    public let root: String
    private var lines: [String] = []

    /// The name for an import starting at `date` (local time), `mediashell-import-YYYY-MM-DD_HHMMSS.xxh128`,
    /// with `-2` and so on when an import of the same second left one.
    public init(root: String, date: Date = Date(), timeZone: TimeZone = .current) {
        self.root = root
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd_HHmmss"
        let stem = root + "/mediashell-import-" + formatter.string(from: date)
        var candidate = stem + ".xxh128"
        var n = 2
        while LocalDisk.exists(candidate) {
            candidate = stem + "-\(n).xxh128"
            n += 1
        }
        path = candidate
    }

    public static let fileExtension = "xxh128"

    public var isEmpty: Bool { lines.isEmpty }
    public var count: Int { lines.count }

    /// Adds a file written at `destination` (under `root`) with its checksum.
    public mutating func add(_ destination: String, _ checksum: Checksum) {
        lines.append(checksum.hex + "  " + relativePath(destination))
    }

    /// `destination` relative to the root (as it is when it is not under it).
    func relativePath(_ destination: String) -> String {
        if root == "." { return destination.hasPrefix("./") ? String(destination.dropFirst(2)) : destination }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return destination.hasPrefix(prefix) ? String(destination.dropFirst(prefix.count)) : destination
    }

    /// Writes the manifest so far (replacing what an earlier group wrote); flushed to the disk when `durable`.
    public func write(durable: Bool = true) throws {
        guard !lines.isEmpty else { return }
        let text = lines.joined(separator: "\n") + "\n"
        try ImportError.onDisk { try LocalDisk.writeAtomically(Array(text.utf8), to: path, durable: durable) }
    }

    /// Flushes the manifest written to the disk (the end of a run).
    public func sync() throws {
        guard !lines.isEmpty else { return }
        try ImportError.onDisk { try LocalDisk.syncFile(path) }
    }
}
