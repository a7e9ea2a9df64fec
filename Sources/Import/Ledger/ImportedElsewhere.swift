import Checksums
import Foundation
import MediaManager
import POSIX

/// A file of this card that another card's import already brought home: the entry this camera's ledger
/// records for it (its name and folder here, the proven copy there) and that card.
public struct ElsewhereMatch: Sendable {
    public var entry: LedgerEntry
    public var card: String
}

/// Finds which files of the card other imports hold already (issue 46), without downloading them. A file
/// is taken for one only when all of these agree: size and capture time (the ledger's index, no read);
/// its first bytes, one small read from the camera, equal to a local copy's; and that copy, hashed whole
/// on this computer, still gives the checksum its ledger recorded. A name is never enough (the card's
/// files may be named anew), a copy changed since it was imported is never trusted, and where two different
/// files imported before share those first bytes, size and time, the read cannot tell which this is: it
/// is fetched.
public enum ImportedElsewhere {
    /// How much of each candidate the camera is asked for: a JPEG's EXIF and preview, a video's first
    /// boxes and frames; bytes that differ between two shots of one second and one size.
    public static let probeBytes = 64 << 10

    /// The files of `files` found in `content` with a copy under `root` (the import's own destination: a
    /// copy elsewhere is not where this import was asked to put the file), by camera path.
    /// `readFirst(file, count)` reads a file's first bytes from the camera; a file whose read fails is
    /// simply not found (the import brings it).
    public static func find(
        _ files: [MediaFile], in content: ImportedContent, within root: String,
        readFirst: (MediaFile, Int) throws -> [UInt8], cancellation: Cancellation = .never
    ) -> [String: ElsewhereMatch] {
        guard !content.isEmpty else { return [:] }
        var found: [String: ElsewhereMatch] = [:]
        var copies = CopyFacts()
        for file in files where !file.isFolder && file.size > 0 {
            if cancellation.isCancelled { break }
            // Only copies still there at the size recorded are worth the camera's read.
            let candidates = content.candidates(for: file).flatMap { known in
                known.entry.allCopies.filter { CopyVerifier.isUnder($0, root) && LocalDisk.regularFileSize($0) == file.size }
                    .map { (known, $0) }
            }
            guard !candidates.isEmpty else { continue }
            let count = Int(min(UInt64(probeBytes), file.size))
            guard let first = try? readFirst(file, count), first.count == count else { continue }
            let probe = Self.fingerprint(first)
            let alike = candidates.filter { copies.prefix(of: $0.1, count: count) == probe }
            // Two different files with these first bytes, size and time: the read cannot tell which this is.
            guard Set(alike.compactMap { $0.0.entry.checksum }).count == 1 else { continue }
            for (known, copy) in alike {
                guard let expected = known.entry.checksum, copies.checksum(of: copy, size: file.size, algorithm: expected.algorithm) == expected
                else { continue }
                found[file.path] = ElsewhereMatch(entry: Self.entry(for: file, from: known.entry, copy: copy), card: known.card)
                break
            }
        }
        return found
    }

    /// This camera's entry for `file`, whose bytes are the copy `copy` that `other` recorded.
    static func entry(for file: MediaFile, from other: LedgerEntry, copy: String) -> LedgerEntry {
        var entry = LedgerEntry(
            name: file.name, folder: file.folder, size: file.size, captured: file.captureDate, checksum: other.checksum,
            path: copy, imported: Date(), sequence: nil, taken: other.takenTime, shift: other.shift ?? 0)
        let others = other.allCopies.filter { $0 != copy && LocalDisk.regularFileSize($0) == file.size }
        if !others.isEmpty { entry.copies = [copy] + others }
        return entry
    }

    /// XXH3-128 of some bytes: first bytes compared as fingerprints, so that a copy's are read once.
    static func fingerprint(_ bytes: [UInt8]) -> Checksum {
        let hash = XXH128()
        hash.update(bytes)
        return hash.checksum()
    }
}

/// What was read of the local copies, each once in a search: the fingerprint of their first bytes (many
/// files of one size and second share their candidates) and their whole checksum.
struct CopyFacts {
    private var prefixes: [String: Checksum?] = [:]
    private var wholes: [String: Checksum?] = [:]

    mutating func prefix(of path: String, count: Int) -> Checksum? {
        let key = "\(count)\u{0}" + path
        if let known = prefixes[key] { return known }
        let hash = XXH128()
        let read: Checksum?
        do {
            try LocalDisk.readPrefix(path, count: UInt64(count)) { hash.update($0) }
            read = hash.checksum()
        } catch {
            read = nil
        }
        prefixes[key] = read
        return read
    }

    mutating func checksum(of path: String, size: UInt64, algorithm: Checksum.Algorithm) -> Checksum? {
        let key = algorithm.rawValue + "\u{0}" + path
        if let known = wholes[key] { return known }
        let hash = algorithm.makeHasher()
        var read: Checksum?
        do {
            try LocalDisk.readPrefix(path, count: size) { hash.update($0) }
            // A copy that grew since holds more than the recorded bytes: not the file.
            read = LocalDisk.regularFileSize(path) == size ? hash.checksum() : nil
        } catch {
            read = nil
        }
        wholes[key] = read
        return read
    }
}
