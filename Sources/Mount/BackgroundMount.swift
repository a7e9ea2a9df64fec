import Foundation
import MediaManager
import POSIX

/// A mount made from the shell's prompt (`mount DIR`): the open camera's session served on a thread of its
/// own while the prompt goes on, until `umount` (or the shell's exit, which unmounts every one left).
/// Signals stay the shell's: the loop ends only when the folder is unmounted.
public final class BackgroundMount: Sendable {
    public let point: String
    public let readOnly: Bool
    private let ended = LockedCondition((done: false, failure: String?.none))
    private static let live = Locked([String: BackgroundMount]())

    /// Why a mount could not be made.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    private init(point: String, readOnly: Bool) {
        self.point = point
        self.readOnly = readOnly
    }

    /// The mounts made from this process and not yet unmounted.
    public static var mounts: [BackgroundMount] { live.withLock { Array($0.values) }.sorted { $0.point < $1.point } }

    /// Mounts `session`'s card on `point` and returns once the kernel knows the mount (or throws why not).
    /// `log` hears what the mount says later (a file sent, the camera gone).
    public static func start(
        _ session: MediaSession, on point: String, readOnly: Bool, environment: [String: String],
        log: @escaping @Sendable (String) -> Void
    ) throws -> BackgroundMount {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: point, isDirectory: &isFolder), isFolder.boolValue else {
            throw Refusal(description: "\(point): no such folder to mount on")
        }
        guard access("/dev/fuse", R_OK | W_OK) == 0 else {
            throw Refusal(description: "/dev/fuse is missing or not usable by this user: FUSE mounts cannot be made here")
        }
        guard live.withLock({ $0[point] == nil }) else { throw Refusal(description: "\(point) is mounted already (umount it first)") }
        guard let state = StateLocation.folder(environment: environment).map({ $0 + "/mount" }) else {
            throw Refusal(description: "neither $XDG_STATE_HOME nor $HOME is set: there is nowhere private to spool new files")
        }
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        session.camera.watchForChanges()
        let fileSystem = CameraFileSystem(session: session, readOnly: readOnly, mountPoint: point, spoolFolder: state, log: log)
        let options = ["fsname=mediashell", "subtype=mediashell", "default_permissions"] + (fileSystem.changesAllowed ? [] : ["ro"])
        let mount = BackgroundMount(point: point, readOnly: !fileSystem.changesAllowed)
        let started = LockedCondition(Bool?.none)
        let bridge = FuseBridge(operations: fileSystem)
        let thread = Thread {
            do {
                try bridge.run(mountPoint: point, options: options, handlesSignals: false) {
                    started.change { $0 = true }
                }
                fileSystem.finishReading()
                mount.ended.change { $0.done = true }
            } catch {
                fileSystem.finishReading()
                started.change { $0 = $0 ?? false }
                mount.ended.change { $0 = (true, "\(error)") }
            }
            live.withLock { _ = $0.removeValue(forKey: point) }
        }
        thread.name = "mount \(point)"
        thread.start()
        _ = started.wait(until: nil, for: { $0 != nil })
        if let failure = mount.ended.withLock({ $0.failure }) { throw Refusal(description: failure) }
        live.withLock { $0[point] = mount }
        installExitUnmount()
        return mount
    }

    /// Unmounts (as `fusermount3 -u` does) and waits, at most `timeout` seconds, for the loop to end;
    /// throws when the folder is busy (a program has a file open in it) or the unmount failed.
    public func stop(timeout: Double = 10) throws {
        let result = Self.fusermount(["-u", point])
        if result != 0 { throw Refusal(description: "\(point) could not be unmounted (is a program using it?)") }
        guard ended.wait(until: .after(timeout), for: { $0.done }) else {
            throw Refusal(description: "\(point) was unmounted but its loop did not end within \(Int(timeout)) s")
        }
    }

    private static func fusermount(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/fusermount3")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    private static let exitHook = Locked(false)

    /// At the process's exit, every mount left is unmounted (lazily: a program may still hold a file),
    /// so that no folder is left as "Transport endpoint is not connected".
    private static func installExitUnmount() {
        let first = exitHook.withLock { installed -> Bool in
            defer { installed = true }
            return !installed
        }
        guard first else { return }
        atexit {
            for mount in BackgroundMount.mounts { _ = BackgroundMount.fusermount(["-uz", mount.point]) }
        }
    }
}
