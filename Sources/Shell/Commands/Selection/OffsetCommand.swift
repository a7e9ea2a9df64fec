import CommandKit
import MediaManager
import POSIX
import TerminalKit

/// offset [BYTES]: how much of the selected file is downloaded, or where the next fetch starts (back over
/// what its `.part` holds, never past it).
struct OffsetCommand: ShellCommand {
    let spec = CommandSpec(
        "offset", area: .selection, arguments: [ArgumentSpec("BYTES", .byteCount, .optional)],
        summary: "show or set the download offset",
        details: "Shows how much of the selected file is downloaded; with BYTES, sets where the next fetch starts.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        guard let selected = shell.state.selection else {
            throw CommandError("no file selected ('select NAME' first)")
        }
        let name = SafeText.display(selected.file.name)
        guard let wanted = invocation.byteCount(at: 0) else {
            let size = selected.file.size
            let local = LocalDisk.join(shell.downloadFolder(nil), LocalFileName.sanitize(selected.file.name))
            if selected.offset == 0, LocalDisk.regularFileSize(local) == size {
                shell.output.note("\(name): downloaded (\(size) bytes, \(SafeText.display(local))); offset 0")
                return .success
            }
            let percent = size == 0 ? 100 : Int(Double(selected.offset) / Double(size) * 100)
            shell.output.note("\(name): offset \(selected.offset) of \(size) bytes (\(percent)%)")
            return .success
        }
        guard wanted <= selected.file.size else {
            throw CommandError("\(wanted) is past the end of \(name) (\(selected.file.size) bytes)")
        }
        guard let onDisk = shell.partialSize(of: selected.file) else {
            guard wanted > 0 else {
                shell.state.setOffset(0)
                return .success
            }
            throw CommandError(
                "\(name) has no .part in \(SafeText.display(shell.downloadFolderShown)): a fetch starts from 0, and "
                    + "the offset can only go back over what a .part holds")
        }
        guard wanted <= onDisk else {
            throw CommandError(
                "only \(onDisk) bytes of \(name) are on disk (\(name).part in \(SafeText.display(shell.downloadFolderShown))); "
                    + "the offset can go back, not past them")
        }
        shell.state.setOffset(wanted)
        return .success
    }
}
