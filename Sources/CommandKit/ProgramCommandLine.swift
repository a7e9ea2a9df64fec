import TerminalKit

extension CommandSpec {
    /// Checks a program's own command line (the words after the program's name, as the system handed them)
    /// against this spec, with the parser the shell's commands use: the same option forms (`-nc CMD`,
    /// `--camera=URL`, `--` ending options), the same argument checks and decoded values, the same errors.
    public func parse(commandLine arguments: [String]) throws(UsageError) -> Invocation {
        let words = [Word(name)] + arguments.enumerated().map { Word($1, column: $0 + 1, isQuoted: true) }
        return try CommandTable([Declared(spec: self)]).invocation(for: Statement(words: words))
    }

    /// This spec with `sections` after its own (`help` lists them after the options).
    public func adding(_ sections: [HelpSection]) -> CommandSpec {
        CommandSpec(
            id, aliases: aliases, area: area, options: options, arguments: arguments, summary: summary,
            details: details, examples: examples, sections: self.sections + sections, passesOptions: passesOptions,
            runsInBackground: runsInBackground)
    }

    /// Every spelling of every option (`-f`, `--file`, ...), for a shell's completion of the command line.
    public var optionSpellings: [String] { options.flatMap(\.spellings) }

    /// The spellings of the options that take a value.
    public var valueOptionSpellings: [String] { options.filter { $0.value != nil }.flatMap(\.spellings) }
}

/// A spec standing for itself, for a table of one program.
private struct Declared: CommandDeclaration {
    let spec: CommandSpec
}
