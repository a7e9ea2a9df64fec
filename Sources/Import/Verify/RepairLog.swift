import Checksums
import Foundation
import POSIX

/// `mediashell-repairs.log` at a destination's root, beside its import manifests: one line for each copy
/// under that root `verify --repair` replaced, so that the folder carries the record of its repairs wherever
/// it is copied. The manifests stay as they were (the repaired copy holds the bytes they list, and a comment
/// in them would fail `xxhsum -c --strict`). Each line has five fields separated by tabs: when (ISO 8601,
/// local time with its offset), the copy (relative to the root), where its bytes came from (a path, or
/// `camera:FOLDER/NAME`), their checksum (`xxh128:HEX`), and where the copy that failed was kept (relative to
/// the root; `-` when it was missing).
public enum RepairLog {
    public static let fileName = "mediashell-repairs.log"
    /// A log past this size is refused rather than read into memory.
    static let maximumBytes = 64 << 20

    /// Adds the line for `repair` to the log at its copy's destination root, flushed; nothing when no import
    /// manifest lists the copy (its root is not known: the ledger records the repair alone).
    static func note(_ repair: CopyRepair, at date: Date) throws {
        guard let root = root(of: repair.path) else { return }
        let path = root + "/" + fileName
        let before = try ImportError.onDisk { try LocalDisk.readWhole(path, limit: maximumBytes) } ?? []
        let line = Array(Self.line(repair, at: date, root: root).utf8)
        try ImportError.onDisk { try LocalDisk.writeAtomically(before + line, to: path) }
    }

    /// The line for `repair`, its paths relative to `root`, ending with a newline.
    static func line(_ repair: CopyRepair, at date: Date, root: String) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = .current
        let relative = { (path: String) in BackupDestination.relative(path, to: root) }
        let fields = [
            formatter.string(from: date), relative(repair.path), repair.source.recorded, repair.checksum.description,
            repair.keptAs.map(relative) ?? "-",
        ]
        // Names are made safe before they reach the disk; a tab or a newline would still break the line.
        return fields.map { String($0.map { $0 == "\t" || $0.isNewline ? "?" : $0 }) }.joined(separator: "\t") + "\n"
    }

    /// The destination root of the copy at `path`: the nearest folder above it whose import manifests list it.
    static func root(of path: String) -> String? {
        var folder = LocalDisk.parentFolder(of: path)
        while true {
            if let listed = try? CopyVerifier.fromManifests(in: folder), listed.contains(where: { $0.path == path }) {
                return folder
            }
            let parent = LocalDisk.parentFolder(of: folder)
            if parent == folder { return nil }
            folder = parent
        }
    }
}
