import Checksums
import Foundation
import POSIX

/// Re-checks imported copies against what the import recorded: the ledgers' entries (every copy of each
/// file) and the manifests in the folders named. Each copy is read from the disk, not the page cache, so a
/// drive that lies is caught, not the memory that remembers what was written.
public enum CopyVerifier {
    /// Every copy every ledger in `folder` records (`LedgerLocation.folder`), under `within` when given.
    public static func fromLedgers(folder: String, within roots: [String] = []) throws -> [CopyToCheck] {
        var copies: [CopyToCheck] = []
        for ledger in try ledgers(in: folder) {
            for entry in ledger.entries {
                for path in entry.allCopies where roots.isEmpty || roots.contains(where: { isUnder(path, $0) }) {
                    copies.append(CopyToCheck(path: path, expected: entry.checksum, size: entry.size, recordedBy: ledger.path))
                }
            }
        }
        return copies
    }

    /// Every ledger in `folder` (`LedgerLocation.folder`), in the order of their file names.
    public static func ledgers(in folder: String) throws -> [ImportLedger] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return try names.sorted().filter { $0.hasSuffix(".json") }.map { try ImportLedger.open(path: folder + "/" + $0) }
    }

    /// The copies the manifests at the root of `folder` record (`ImportManifest`), their paths relative to it.
    public static func fromManifests(in folder: String) throws -> [CopyToCheck] {
        let names = try ImportError.onDisk {
            do { return try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
                throw SystemError(.open, path: folder, errno: ENOENT)
            }
        }
        var copies: [CopyToCheck] = []
        for name in names.sorted() where name.hasPrefix("mediashell-import-") && name.hasSuffix("." + ImportManifest.fileExtension) {
            let path = folder + "/" + name
            guard let bytes = try ImportError.onDisk({ try LocalDisk.readWhole(path, limit: 256 << 20) }) else { continue }
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                // `HEX  PATH`, as xxhsum writes them.
                guard let space = line.firstIndex(of: " "), line[space...].hasPrefix("  ") else { continue }
                let hex = String(line[..<space])
                let relative = String(line[line.index(space, offsetBy: 2)...])
                guard let algorithm = [Checksum.Algorithm.xxh128, .sha256].first(where: { $0.hexLength == hex.count }) else { continue }
                copies.append(CopyToCheck(
                    path: folder + "/" + relative, expected: Checksum(algorithm, hex: hex), size: nil, recordedBy: path))
            }
        }
        return copies
    }

    static func isUnder(_ path: String, _ root: String) -> Bool {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix)
    }

    /// The same copy recorded twice (by the ledger and a manifest) is checked once.
    public static func distinct(_ copies: [CopyToCheck]) -> [CopyToCheck] {
        var seen = Set<String>()
        return copies.filter { seen.insert($0.path + "\u{0}" + ($0.expected?.description ?? "")).inserted }
    }

    /// Checks each copy in order, saying each problem as it is found; `progress` gets the bytes read so
    /// far. Stops between two copies when `cancellation`.
    public static func check(
        _ copies: [CopyToCheck], cancellation: Cancellation = .never, progress: ((_ done: Int, _ bytes: UInt64) -> Void)? = nil,
        problem: (CopyProblem) -> Void
    ) -> VerifyReport {
        let started = monotonicSeconds()
        var report = VerifyReport()
        for copy in copies {
            if cancellation.isCancelled {
                report.interrupted = true
                break
            }
            report.copies += 1
            if copy.expected == nil { report.withoutChecksum += 1 }
            let found: CopyProblem?
            if let size = LocalDisk.regularFileSize(copy.path) {
                if let expected = copy.size, expected != size {
                    found = .wrongSize(copy, found: size)
                } else if let expected = copy.expected {
                    let hash = expected.algorithm.makeHasher()
                    do {
                        _ = try LocalDisk.readFromDisk(copy.path) { chunk in
                            hash.update(chunk)
                            report.bytes += UInt64(chunk.count)
                            progress?(report.copies, report.bytes)
                        }
                        let digest = hash.checksum()
                        found = digest == expected ? nil : .changed(copy, found: digest)
                    } catch {
                        found = .unreadable(copy, error)
                    }
                } else {
                    found = nil
                }
            } else {
                found = .missing(copy)
            }
            if let found {
                report.problems.append(found)
                problem(found)
            }
            progress?(report.copies, report.bytes)
        }
        report.seconds = monotonicSeconds() - started
        return report
    }
}
