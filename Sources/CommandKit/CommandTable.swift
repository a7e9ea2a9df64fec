/// Something that declares a command: its spec. A program's command type refines it with what the command
/// does (the shell's `ShellCommand` adds `run`); the table, the parser, help and completion need only this.
public protocol CommandDeclaration: Sendable {
    /// Names, help texts, options and arguments.
    var spec: CommandSpec { get }
}

/// The one list of commands: `help`, argument checking, completion and the program that runs them all read
/// it. Each command is declared once, in its own file.
public struct CommandTable: Sendable {
    /// Every command's spec, in the order `help` lists them.
    public let commands: [CommandSpec]
    private let byName: [String: CommandSpec]
    private let implementations: [CommandID: any CommandDeclaration]

    /// A table of `commands`; two commands may not share a name or an alias.
    public init(_ commands: [any CommandDeclaration]) {
        self.commands = commands.map(\.spec)
        var byName: [String: CommandSpec] = [:]
        var implementations: [CommandID: any CommandDeclaration] = [:]
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

    /// The declaration of the command `id`, as the program made it (the shell casts it to its command type).
    public func implementation(of id: CommandID) -> (any CommandDeclaration)? { implementations[id] }

    /// Every name and alias a user can type, sorted.
    public var allNames: [String] { byName.keys.sorted() }
}
