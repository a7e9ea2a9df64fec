/// help [CMD]: the command list, or one command's usage, options and details.
struct HelpCommand: ShellCommand {
    let spec = CommandSpec(
        "help", aliases: ["?"], area: .session, arguments: [ArgumentSpec("CMD", .commandName, .optional)],
        summary: "list the commands, or explain one",
        details: "With no argument, lists every command. With CMD, shows its usage, options and what it does.")

    func run(_ invocation: Invocation, in shell: Interpreter) throws -> CommandOutcome {
        if let name = invocation.arguments.first {
            shell.output.line(try shell.table.help(forName: name.text))
        } else {
            shell.output.line(shell.table.helpOverview())
        }
        return .success
    }
}
