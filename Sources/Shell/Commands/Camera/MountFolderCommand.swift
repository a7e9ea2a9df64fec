import CommandKit
import Foundation
import Mount
import POSIX
import TerminalKit

/// mount [-r] DIR: the open camera's card as the folder DIR (FUSE) while the prompt goes on; umount ends it.
struct MountFolderCommand: ShellCommand {
    let spec = CommandSpec(
        "mount", area: .camera,
        options: [OptionSpec("read-only", short: "r", long: "read-only", "refuse every change (EROFS)")],
        arguments: [ArgumentSpec("DIR", .localFolder, .optional)],
        summary: "the open camera's card as a folder (FUSE), until umount",
        details: """
            Makes the card the folder DIR, as 'mediashell mount' does, while the prompt goes on: other \
            programs can read it (cp, rsync, a player) and, where the camera takes them, write new files, \
            delete and make folders. Without DIR, lists the folders mounted. 'umount' ends it; the shell's \
            exit unmounts every one left.
            """)

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        guard let word = invocation.arguments.first else {
            for mount in BackgroundMount.mounts {
                shell.output.line("\(SafeText.display(mount.point))\(mount.readOnly ? " (read-only)" : "")")
            }
            return .success
        }
        let session = try shell.requireCamera()
        let point = localPath(word.text)
        do {
            let mount = try BackgroundMount.start(
                session, on: point, readOnly: invocation.has("read-only"), environment: shell.environment,
                // From the mount's threads, while the prompt may be writing: one whole line on standard error.
                log: { Console.error("mount: " + SafeText.display($0)) })
            shell.output.note("mounted the card on \(SafeText.display(mount.point))\(mount.readOnly ? " (read-only)" : ""); umount ends it")
        } catch {
            throw CommandError("mount: \(SafeText.display("\(error)"))")
        }
        return .success
    }
}

/// umount [DIR]: ends a mount made at the prompt (the only one, when DIR is not given).
struct UmountCommand: ShellCommand {
    let spec = CommandSpec(
        "umount", area: .camera, arguments: [ArgumentSpec("DIR", .localFolder, .optional)],
        summary: "end a mount made with mount",
        details: "Unmounts DIR (without DIR, the one folder mounted); refused while a program uses a file in it.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let mounts = BackgroundMount.mounts
        let chosen: BackgroundMount
        if let word = invocation.arguments.first {
            let point = localPath(word.text)
            guard let found = mounts.first(where: { $0.point == point }) else {
                throw CommandError("\(SafeText.display(word.text)) is not mounted by this shell")
            }
            chosen = found
        } else {
            guard mounts.count == 1, let only = mounts.first else {
                throw CommandError(mounts.isEmpty ? "nothing is mounted" : "several folders are mounted: name one (mount lists them)")
            }
            chosen = only
        }
        do {
            try chosen.stop()
        } catch {
            throw CommandError("umount: \(SafeText.display("\(error)"))")
        }
        shell.output.note("unmounted \(SafeText.display(chosen.point))")
        return .success
    }
}

/// Refuses a command that closes the camera (close, open) while a folder mounted at this prompt serves the open camera: closing
/// the session under it would leave a mount that answers every program with EIO until it is unmounted.
/// One line: where it is mounted, and the umount that ends it.
func refuseWhileMounted() throws {
    let points = BackgroundMount.mounts.map { SafeText.display($0.point) }.sorted()
    guard let first = points.first else { return }
    if points.count == 1 {
        throw CommandError("the card is mounted on \(first): 'umount \(first)' first")
    }
    throw CommandError("the card is mounted on \(points.joined(separator: ", ")): 'umount DIR' each first")
}

/// A local path as typed, made absolute from the shell's local folder (`lcd`).
private func localPath(_ text: String) -> String {
    let expanded = LocalDisk.expandingTilde(text)
    let absolute = expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded
    return (absolute as NSString).standardizingPath
}
