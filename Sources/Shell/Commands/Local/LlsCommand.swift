import CommandKit
import TerminalKit

/// lls [ARGS...]: the local folder listed by this computer's `ls`, as in sftp and lftp.
struct LlsCommand: ShellCommand {
    let spec = CommandSpec(
        "lls", area: .local, arguments: [ArgumentSpec("ARG", .localPath, .zeroOrMore)],
        summary: "list local files (runs ls)",
        details: "Runs this computer's ls with ARGs (its options too, such as -l) in the local folder; "
            + "wildcards are expanded by the local shell.",
        examples: ["lls", "lls -l *.MP4", "lls ~/Pictures"], passesOptions: true)

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        try shell.runLocal("exec ls " + LocalShell.shellWords(invocation.arguments))
        return .success
    }
}
