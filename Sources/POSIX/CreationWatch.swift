#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Waits for a file to appear in a folder with inotify, so nobody polls the folder: create the watch, then
/// start what makes the file, then `wait`.
public final class CreationWatch {
    private let fd: Int32
    private let folder: String

    public init(folder: String) throws(SystemError) {
        fd = try systemCall("inotify_init1") { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
        self.folder = folder
        do throws(SystemError) {
            try systemCall("inotify_add_watch", path: folder) { inotify_add_watch(fd, folder, UInt32(IN_CREATE | IN_MOVED_TO)) }
        } catch {
            _ = close(fd)
            throw error
        }
    }

    deinit { _ = close(fd) }

    public enum Outcome: Sendable { case created, hangup, timedOut }

    /// Returns when `name` exists in the folder, when `lifeline` (a socket the creator holds) reaches its
    /// end, or at `deadline`.
    public func wait(for name: String, orEndOf lifeline: Socket, deadline: Deadline) throws(SystemError) -> Outcome {
        let path = folder + "/" + name
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if access(path, F_OK) == 0 { return .created }
            let seen = try lifeline.leased(.poll, on: lifeline.description) { lifelineFD throws(SystemError) in
                try pollDescriptors([fd, lifelineFD], events: .readable, deadline: deadline)
            }
            if seen.allSatisfy(\.isEmpty) { return access(path, F_OK) == 0 ? .created : .timedOut }
            if !seen[1].isEmpty && lifeline.drainReachedEnd() { return access(path, F_OK) == 0 ? .created : .hangup }
            // Drain the events; the loop re-checks the path itself.
            _ = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        }
    }
}
