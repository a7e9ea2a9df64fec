import Checksums
import Foundation
import POSIX

/// What `verify` does with the ASC MHL history of a folder it is given: the copies to check are the files
/// the history records, each against its original hash (as `ascmhl verify` checks them; MD5, SHA-1, C4,
/// XXH64 and XXH3-64 as well as XXH3-128, whoever wrote it); then a new generation records each file
/// checked, `verified` with the hash it gave, or `failed` with the one it gives now.
public enum MHLRecheck {
    /// The copies the history at `root` records; none when it has none.
    public static func copies(in root: String) throws(MHLError) -> [CopyToCheck] {
        let history = try MHLHistory.open(root: root)
        return history.originals().sorted { $0.key < $1.key }.map { path, original in
            CopyToCheck(path: root + "/" + path, expected: original.checksum, size: original.size, recordedBy: history.folder)
        }
    }

    /// The roots of the histories above `paths` (the nearest folder up from each with an `ascmhl/` of its
    /// own holding a chain), in order: those a check of the ledgers' copies extends. Each folder is looked
    /// at once.
    public static func roots(above paths: [String]) -> [String] {
        var seen: [String: String?] = [:]
        var roots = Set<String>()
        for path in paths where path.hasPrefix("/") {
            // Up from the copy's folder until a history, a folder looked at before, or `/`.
            var walked: [String] = []
            var folder = LocalDisk.parentFolder(of: path)
            var found: String?
            while true {
                if let known = seen[folder] {
                    found = known
                    break
                }
                walked.append(folder)
                if LocalDisk.isFolderItself(folder + "/" + MHLHistory.folderName),
                    LocalDisk.regularFileSize(folder + "/" + MHLHistory.folderName + "/" + MHLChain.fileName) != nil
                {
                    found = folder
                    break
                }
                let parent = LocalDisk.parentFolder(of: folder)
                if parent == folder { break }
                folder = parent
            }
            for folder in walked { seen[folder] = .some(found) }
            if let found { roots.insert(found) }
        }
        return roots.sorted()
    }

    /// Adds a generation to the history at `root` recording each of `checked` under it that the history
    /// records (`problems`: what the check found wrong), and returns where it went; nil when it records
    /// none (no history there, or none of them in it). A copy missing or unreadable is not in it: there is
    /// no hash to record. One of another size is hashed here, to record what it is now.
    public static func record(
        _ checked: [CopyToCheck], problems: [CopyProblem], in root: String, creator: MHLCreator
    ) throws -> String? {
        var generation = try MHLNewGeneration(root: root, creator: creator, process: .inPlace)
        let recorded = generation.recorded
        guard !recorded.isEmpty else { return nil }
        let wrong = Dictionary(problems.map { ($0.copy.path + "\u{0}" + ($0.copy.expected?.description ?? ""), $0) }) { first, _ in first }
        for copy in checked {
            guard let expected = copy.expected, MHLGeneration.formats.contains(expected.algorithm),
                let relative = generation.relativePath(copy.path), recorded[relative] != nil
            else { continue }
            switch wrong[copy.path + "\u{0}" + expected.description] {
            case nil: generation.add(relative: relative, expected, action: .verified)
            case .changed(_, let found)?: generation.add(relative: relative, found, action: .failed)
            case .wrongSize?:
                let hash = expected.algorithm.makeHasher()
                guard (try? LocalDisk.readFromDisk(copy.path, { hash.update($0) })) != nil else { continue }
                generation.add(relative: relative, hash.checksum(), action: .failed)
            case .missing?, .unreadable?: continue
            }
        }
        guard !generation.isEmpty else { return nil }
        try generation.finish()
        return generation.path
    }
}
