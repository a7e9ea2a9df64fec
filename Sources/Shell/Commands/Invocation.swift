import TerminalKit

/// A command line checked against its command's spec: options sorted out, arguments counted and checked.
public struct Invocation: Sendable, Hashable {
    public let command: CommandSpec
    /// The command name as typed (may be an alias such as `get`).
    public let name: Word
    /// True when the line wrote the command as `-name`: a failure should not stop a script.
    public let ignoresFailure: Bool
    /// The flags given, by option identity.
    public let flags: Set<OptionName>
    /// The values of options that take one (the last one wins when repeated).
    public let values: [OptionName: Word]
    /// The positional arguments, in order.
    public let arguments: [Word]
    /// True when the line ended the command with `&`: it runs as a job (fetch and import only).
    public let runsInBackground: Bool

    public init(
        command: CommandSpec, name: Word, ignoresFailure: Bool = false, flags: Set<OptionName> = [],
        values: [OptionName: Word] = [:], arguments: [Word] = [], runsInBackground: Bool = false
    ) {
        self.runsInBackground = runsInBackground
        self.command = command
        self.name = name
        self.ignoresFailure = ignoresFailure
        self.flags = flags
        self.values = values
        self.arguments = arguments
    }

    public var id: CommandID { command.id }

    /// True when the flag `option` was given.
    public func has(_ option: OptionName) -> Bool { flags.contains(option) }

    /// The value given to `option`, if any.
    public func value(of option: OptionName) -> Word? { values[option] }
}
