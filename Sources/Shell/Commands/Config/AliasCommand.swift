import CommandKit
import TerminalKit

/// alias [NAME ['CMDS']]: lists the aliases, shows one, or makes NAME run CMDS (`$1`, `$@` for its words).
struct AliasCommand: ShellCommand {
    let spec = CommandSpec(
        "alias", area: .config,
        options: [OptionSpec(.save, long: "save", "also write the alias to the config file")],
        arguments: [ArgumentSpec("NAME", .text, .optional), ArgumentSpec("CMDS", .text, .optional)],
        summary: "list aliases, or make NAME run commands",
        details: "With no argument, lists the aliases; with NAME, shows one; with NAME 'CMDS', makes NAME run "
            + "CMDS (quoted, ';' between commands). In CMDS, $1 to $9 are the words typed after NAME and $@ "
            + "all of them; with neither, the words go after CMDS. A name of mediashell's own commands cannot "
            + "be an alias. --save also writes it to the config file, so that every later session has it.",
        examples: ["alias", "alias today 'cd DCIM/100MEDIA; ls -lt'", "alias --save grab 'fetch -o ~/Pictures $@'",
            "alias peek 'select $1; info'"])

    func run(_ invocation: Invocation, in shell: any ConfigContext) throws -> CommandOutcome {
        let arguments = invocation.arguments
        guard let name = arguments.first?.text else {
            for name in shell.aliases.keys.sorted() {
                shell.output.line("alias \(name) \(LocalShell.quoted(shell.aliases[name] ?? ""))".map { SafeText.display(String($0)) }.joined())
            }
            return .success
        }
        guard arguments.count > 1 else {
            guard let body = shell.aliases[name] else { throw CommandError("no alias \(SafeText.display(name))") }
            shell.output.line(SafeText.display("alias \(name) \(LocalShell.quoted(body))"))
            return .success
        }
        try shell.defineAlias(name, arguments[1].text)
        if invocation.has(.save) {
            guard let path = shell.configPath else {
                throw CommandError("no config file: neither $XDG_CONFIG_HOME nor $HOME is an absolute folder")
            }
            try ConfigFile.save(alias: name, body: arguments[1].text, at: path)
        }
        return .success
    }
}

/// unalias NAME: forgets an alias.
struct UnaliasCommand: ShellCommand {
    let spec = CommandSpec(
        "unalias", area: .config, arguments: [ArgumentSpec("NAME", .text)],
        summary: "forget an alias", examples: ["unalias today"])

    func run(_ invocation: Invocation, in shell: any ConfigContext) throws -> CommandOutcome {
        let name = invocation.arguments[0].text
        guard shell.aliases.removeValue(forKey: name) != nil else {
            throw CommandError("no alias \(SafeText.display(name))")
        }
        return .success
    }
}
