import CommandKit
import MediaManager
import TerminalKit
import Words

/// select NAME | --clear: makes NAME the selected file, with the offset its `.part` already holds, or
/// forgets the selection.
struct SelectCommand: ShellCommand {
    let spec = CommandSpec(
        "select", area: .selection,
        options: [OptionSpec(.clear, long: "clear", "forget the selection")],
        arguments: [ArgumentSpec("NAME", .remoteName, .optional)],
        summary: "select a file",
        details: "Makes NAME the selected file (shown in the prompt until a fetch of it completes); selecting "
            + "another file resets the offset. --clear forgets the selection.",
        examples: ["select DJI_0003.MP4", "select 'My Clip.MP4'", "select --clear"])

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        if invocation.has(.clear) {
            guard invocation.arguments.isEmpty else { throw CommandError("--clear takes no NAME") }
            shell.state.clearSelection()
            return .success
        }
        guard let word = invocation.arguments.first else { throw CommandError("missing NAME (or --clear)") }
        let catalog = try shell.loadedCatalog()
        let file = try shell.oneFile(for: word, in: catalog, command: "select")
        shell.state.select(file, downloaded: shell.partialSize(of: file) ?? 0)
        var line = "selected \(RemotePath.display(file.path)) (\(HumanReadable.size(file.size)))"
        if let offset = shell.state.selection?.offset, offset > 0 {
            line += "; \(HumanReadable.size(offset)) already downloaded, 'fetch' continues"
        }
        shell.output.note(line)
        return .success
    }
}
