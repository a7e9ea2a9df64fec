import CommandKit
import POSIX
import TerminalKit

/// lpwd: the local folder, and where downloads go when `download-dir` points elsewhere.
struct LpwdCommand: ShellCommand {
    let spec = CommandSpec(
        "lpwd", area: .local, summary: "print the local folder",
        details: "Prints the local folder, and where downloads go when `set download-dir` points elsewhere.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let here = LocalDisk.currentFolder
        shell.output.line(SafeText.display(here))
        let downloads = shell.downloadFolder(nil)
        if downloads != "." {
            let absolute = downloads.hasPrefix("/") ? downloads : LocalDisk.join(here, downloads)
            shell.output.note("downloads go to \(SafeText.display(absolute)) (set download-dir)")
        }
        return .success
    }
}
