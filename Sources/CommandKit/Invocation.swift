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
    /// Every value given to each option, in order: an option a command takes more than once (`--backup`).
    public let everyValue: [OptionName: [Word]]
    /// The positional arguments, in order.
    public let arguments: [Word]
    /// What each value and argument means, decoded once by the parser from its kind (`ArgumentKind`): a
    /// number, a byte count, a seek position, or the word itself.
    public let decodedValues: [OptionName: ArgumentValue]
    public let decodedArguments: [ArgumentValue]
    /// True when the line ended the command with `&`: it runs as a job (only commands whose spec says
    /// `runsInBackground`).
    public let runsInBackground: Bool

    public init(
        command: CommandSpec, name: Word, ignoresFailure: Bool = false, flags: Set<OptionName> = [],
        values: [OptionName: Word] = [:], arguments: [Word] = [], runsInBackground: Bool = false
    ) {
        self.decodedValues = Dictionary(uniqueKeysWithValues: values.map { option, word in
            (option, ArgumentValue(word.text, as: command.options.first { $0.name == option }?.value?.kind ?? .text))
        })
        self.decodedArguments = arguments.enumerated().map { position, word in
            ArgumentValue(word.text, as: command.argument(at: position)?.kind ?? .text)
        }
        self.runsInBackground = runsInBackground
        self.command = command
        self.name = name
        self.ignoresFailure = ignoresFailure
        self.flags = flags
        self.values = values
        self.everyValue = values.mapValues { [$0] }
        self.arguments = arguments
    }

    /// An invocation whose values the parser decoded.
    init(
        command: CommandSpec, name: Word, ignoresFailure: Bool, flags: Set<OptionName>,
        values: [OptionName: (word: Word, value: ArgumentValue)], every: [OptionName: [Word]],
        arguments: [(word: Word, value: ArgumentValue)], runsInBackground: Bool
    ) {
        self.command = command
        self.name = name
        self.ignoresFailure = ignoresFailure
        self.flags = flags
        self.values = values.mapValues(\.word)
        self.everyValue = every
        self.arguments = arguments.map(\.word)
        self.decodedValues = values.mapValues(\.value)
        self.decodedArguments = arguments.map(\.value)
        self.runsInBackground = runsInBackground
    }

    public var id: CommandID { command.id }

    /// True when the flag `option` was given.
    public func has(_ option: OptionName) -> Bool { flags.contains(option) }

    /// The value given to `option`, if any.
    public func value(of option: OptionName) -> Word? { values[option] }

    /// Every value given to `option`, in the order typed; empty when none was.
    public func values(of option: OptionName) -> [Word] { everyValue[option] ?? [] }
}

extension Invocation {
    /// The positional argument at `index` as the number its kind (`.integer`) made it, nil when absent.
    public func integer(at index: Int) -> Int? { decodedArguments.indices.contains(index) ? decodedArguments[index].integer : nil }
    /// The positional argument at `index` as a byte count (`.byteCount`), nil when absent.
    public func byteCount(at index: Int) -> UInt64? {
        decodedArguments.indices.contains(index) ? decodedArguments[index].byteCount : nil
    }
    /// The positional argument at `index` as a seek position (`.seekPosition`), nil when absent.
    public func seekPosition(at index: Int) -> SeekPosition? {
        decodedArguments.indices.contains(index) ? decodedArguments[index].seekPosition : nil
    }
    /// The value of `option` as a number (`.integer`), nil when not given.
    public func integer(of option: OptionName) -> Int? { decodedValues[option]?.integer }
    /// The value of `option` as a byte count (`.byteCount`), nil when not given.
    public func byteCount(of option: OptionName) -> UInt64? { decodedValues[option]?.byteCount }
}

/// A value or argument decoded from its word by its kind.
public enum ArgumentValue: Sendable, Hashable {
    /// The word as typed: names, paths, text, choices.
    case word(String)
    case integer(Int)
    case byteCount(UInt64)
    case seekPosition(SeekPosition)

    /// The value `text` holds for `kind`, or the word itself when it holds none (the parser refuses those).
    init(_ text: String, as kind: ArgumentKind) {
        switch kind {
        case .integer: self = Int(text).map { .integer($0) } ?? .word(text)
        case .byteCount: self = UInt64(text).map { .byteCount($0) } ?? .word(text)
        case .seekPosition: self = SeekPosition(text).map { .seekPosition($0) } ?? .word(text)
        default: self = .word(text)
        }
    }

    public var integer: Int? { if case .integer(let value) = self { value } else { nil } }
    public var byteCount: UInt64? { if case .byteCount(let value) = self { value } else { nil } }
    public var seekPosition: SeekPosition? { if case .seekPosition(let value) = self { value } else { nil } }
}
