import Failures

/// Why an import (or a fetch planned by this module) cannot go on. The cases carry the facts and the
/// descriptions say them; what to do about it (which command, which option) the shell adds.
public enum ImportError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// The ledger file is not one this program wrote (or was damaged): importing on would bring the whole
    /// card again, so the import stops and names the file.
    case corruptLedger(path: String, detail: String)
    /// Another import from the same camera holds the ledger's run lock.
    case ledgerBusy(path: String)
    /// A destination pattern with an unknown token or nothing to name a file.
    case badPattern(pattern: String, reason: String)
    /// The files to fetch need more room than the destination has.
    case notEnoughSpace(needed: UInt64, available: UInt64, folder: String)
    /// A file appeared at a destination while the import ran, and nothing may replace it.
    case appeared(path: String)
    /// A local file operation failed: the call, the file and the errno (its category says which kind).
    case local(SystemError)
    /// A backup destination (`--backup DIR`) is not there at the start: its drive is not mounted, or it was
    /// never made. Nothing is written to a folder that is not there (it would land on the disk beneath).
    case backupMissing(root: String)
    /// A proven copy that a missing one was to be made from no longer gives its checksum.
    case sourceChanged(path: String, expected: String, found: String)
    /// A copy read back from the disk did not give the checksum its bytes had as they arrived; it was
    /// renamed `keptAs` (a name that says so), and is not recorded.
    case copyReadBackWrong(path: String, keptAs: String, expected: String, found: String)
    /// The file at `path` has the camera file's name, size and date but not its bytes (`found` against
    /// the camera's `expected`): it is not a copy of it, so the camera's is not deleted.
    case notTheCamerasFile(path: String, expected: String, found: String)

    public var description: String {
        switch self {
        case .corruptLedger(let path, let detail):
            "the import ledger \(path) cannot be read (\(detail)); nothing was imported"
        case .ledgerBusy(let path):
            "another import from this camera is running (it holds \(path))"
        case .badPattern(let pattern, let reason): "bad destination pattern '\(pattern)': \(reason)"
        case .notEnoughSpace(let needed, let available, let folder):
            "not enough space in \(folder): the files need \(ByteCount.text(needed)), "
                + "\(ByteCount.text(available)) is free"
        case .appeared(let path): "\(path) appeared during the import"
        case .local(let error): error.description
        case .backupMissing(let root): "the backup destination \(root) is not there (is its drive mounted?)"
        case .sourceChanged(let path, let expected, let found):
            "\(path) changed since it was imported (\(found), recorded as \(expected)): no copy made from it"
        case .copyReadBackWrong(let path, let keptAs, let expected, let found):
            "the copy at \(path) read back from the disk wrong (\(found), written as \(expected)); kept as \(keptAs)"
        case .notTheCamerasFile(let path, let expected, let found):
            "\(path) has this file's name, size and date but not its bytes (\(found); the camera's give \(expected))"
        }
    }

    public var category: FailureCategory {
        switch self {
        case .corruptLedger, .notEnoughSpace: .localIO
        case .local(let error): error.category
        case .appeared: .alreadyExists
        case .copyReadBackWrong: .localIO
        case .backupMissing: .notFound
        case .sourceChanged: .localIO
        case .notTheCamerasFile: .alreadyExists
        case .ledgerBusy: .busy
        case .badPattern: .invalidRequest
        }
    }
}

/// Byte counts in the words of error messages: 1.2 MB, 340 kB (decimal units, like the shell's).
enum ByteCount {
    static func text(_ bytes: UInt64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(bytes) B" }
        let rounded = (value * 10).rounded() / 10
        return "\(rounded) \(units[unit])"
    }
}
