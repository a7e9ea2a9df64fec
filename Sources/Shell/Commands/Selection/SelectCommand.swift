/// select NAME: makes NAME the selected file, with the offset its `.part` already holds.
struct SelectCommand: ShellCommand {
    let spec = CommandSpec(
        "select", area: .selection, arguments: [ArgumentSpec("NAME", .remoteName)],
        summary: "select a file",
        details: "Makes NAME the selected file (shown in the prompt); selecting another file resets the offset.")

    func run(_ invocation: Invocation, in shell: Interpreter) throws -> CommandOutcome {
        guard let word = invocation.arguments.first else { return .success }
        let catalog = try shell.loadedCatalog()
        let file = try shell.oneFile(for: word, in: catalog, command: "select")
        shell.state.select(file, downloaded: shell.partialSize(of: file) ?? 0)
        var line = "selected \(RemotePath.display(file.path)) (\(HumanReadable.size(file.size)))"
        if let offset = shell.state.selection?.offset, offset > 0 {
            line += "; \(HumanReadable.size(offset)) already downloaded, 'fetch' continues"
        }
        shell.output.line(line)
        return .success
    }
}
