/// The one list of commands: `help`, argument checking, completion and the interpreter all read it. The
/// standard list is in `CommandList.swift`; each command is a `ShellCommand` in its own file.
public struct CommandTable: Sendable {
    /// Every command's spec, in the order `help` lists them.
    public let commands: [CommandSpec]
    private let byName: [String: CommandSpec]
    private let implementations: [CommandID: any ShellCommand]

    /// A table of `commands`; two commands may not share a name or an alias.
    public init(_ commands: [any ShellCommand]) {
        self.commands = commands.map(\.spec)
        var byName: [String: CommandSpec] = [:]
        var implementations: [CommandID: any ShellCommand] = [:]
        for command in commands {
            let spec = command.spec
            for name in [spec.name] + spec.aliases {
                precondition(byName[name] == nil, "two commands are called \(name)")
                byName[name] = spec
            }
            implementations[spec.id] = command
        }
        self.byName = byName
        self.implementations = implementations
    }

    /// The command called `name` (canonical name or alias).
    public func command(named name: String) -> CommandSpec? { byName[name] }

    /// The spec of a command by identity.
    public func command(_ id: CommandID) -> CommandSpec {
        byName[id.rawValue]!
    }

    /// The code that runs the command `id`.
    public func implementation(of id: CommandID) -> (any ShellCommand)? { implementations[id] }

    /// Every name and alias a user can type, sorted.
    public var allNames: [String] { byName.keys.sorted() }
}
