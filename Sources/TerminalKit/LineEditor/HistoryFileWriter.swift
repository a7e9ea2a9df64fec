import Dispatch
import Foundation
import POSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes the history file off the prompt's thread: the prompt hands over the file's bytes and comes back at
/// once; a serial queue writes the newest bytes it was given to a temporary file (mode 0600) and renames it
/// over the old one. Measured (scripts/bench-jobs): while a background import synced 512 MiB to the same
/// filesystem, that rename waited 1.7 s for the sync, and every command typed then waited with it.
/// Bytes handed over while a write is under way replace each other: only the newest is written next.
final class HistoryFileWriter: Sendable {
    let path: String
    private let queue = DispatchQueue(label: "mediashell.history")
    private let pending = Locked<[UInt8]?>(nil)

    init(path: String) { self.path = path }

    /// Saves `bytes` as the file soon (in order: a later call's bytes win).
    func save(_ bytes: [UInt8]) {
        pending.withLock { $0 = bytes }
        queue.async { [self] in
            guard let newest = pending.withLock({ value -> [UInt8]? in defer { value = nil }; return value }) else { return }
            Self.replaceFile(at: path, with: newest)
        }
    }

    /// Returns once every save handed over so far is on its way to the disk (written and renamed).
    func finish() { queue.sync {} }

    private static func replaceFile(at path: String, with bytes: [UInt8]) {
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        _ = fchmod(descriptor, 0o600)
        let whole = (try? writeAll(descriptor, bytes)) != nil
        if close(descriptor) == 0 && whole {
            rename(temporary, path)
        } else {
            unlink(temporary)
        }
    }
}
