import Foundation

/// A small filesystem of its own (tmpfs, mounted by root): a disk that really fills up, every write there
/// failing (a backup disk, a download folder), or one too small for a download.
public enum TinyDisk {
    /// True when this process may mount a tmpfs (root, and a kernel and container that allow it).
    public static let available: Bool = {
        guard geteuid() == 0, let probe = try? TemporaryFolder("msh-tiny-probe") else { return false }
        guard mount(probe.path, bytes: 64 << 10) else { return false }
        unmount(probe.path)
        return true
    }()

    /// Mounts a tmpfs of `bytes` on `folder`; false when it cannot.
    public static func mount(_ folder: String, bytes: Int) -> Bool {
        run(["mount", "-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", folder])
    }

    /// Grows the tmpfs on `folder` to `bytes`, keeping its files: room made.
    public static func grow(_ folder: String, bytes: Int) -> Bool {
        run(["mount", "-o", "remount,size=\(bytes)", folder])
    }

    public static func unmount(_ folder: String) { _ = run(["umount", folder]) }

    private static func run(_ arguments: [String]) -> Bool {
        guard let tool = ExternalTool.find(arguments[0]) else { return false }
        return (try? tool.run(Array(arguments.dropFirst()))) != nil
    }
}

