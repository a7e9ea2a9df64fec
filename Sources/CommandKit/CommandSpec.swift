/// A command's canonical name, as its identity (`"fetch"`, not the alias `get`).
public struct CommandID: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
}

/// The group a command is listed under in `help`.
public enum CommandArea: String, Sendable, Hashable, CaseIterable {
    case session, catalog, selection, transfer, edit, playback, camera, local, config
    /// A program's own command line (`mediashell`, `mediashell serve`), not a command at a prompt.
    case program
}

/// What a positional argument or an option value names; drives checking and completion.
public enum ArgumentKind: Sendable, Hashable {
    /// A file or folder on the camera (may be a glob).
    case remoteName
    /// A folder on the camera.
    case remoteFolder
    /// A file or folder on this computer.
    case localPath
    /// A folder on this computer.
    case localFolder
    /// The name of a shell setting (`set NAME`).
    case settingName
    /// Any text (a setting's value).
    case text
    /// A camera URL such as `ptpip:192.168.1.1` or `sim:`.
    case cameraURL
    /// A playback position: seconds, `m:ss(.f)`, `+N`/`-N` or `N%` (see `SeekPosition`).
    case seekPosition
    /// A whole number, possibly negative.
    case integer
    /// A byte count or offset: a whole number, zero or more.
    case byteCount
    /// A command name (`help CMD`).
    case commandName
    /// One of a fixed list of words.
    case choice([String])
    /// The name of one of the camera's device properties (`prop NAME`).
    case propertyName
    /// A value for the property named by the positional argument before it (`prop NAME VALUE`).
    case propertyValue
    /// A value for the setting named by the positional argument before it (`set NAME VALUE`).
    case settingValue
}

/// How many words a positional argument takes.
public enum Arity: Sendable, Hashable {
    case one, optional, zeroOrMore, oneOrMore
}

/// A positional argument: its placeholder in the synopsis (`NAME`), what it names and how many.
public struct ArgumentSpec: Sendable, Hashable {
    public let placeholder: String
    public let kind: ArgumentKind
    public let arity: Arity

    public init(_ placeholder: String, _ kind: ArgumentKind, _ arity: Arity = .one) {
        self.placeholder = placeholder
        self.kind = kind
        self.arity = arity
    }
}

/// The identity of an option inside an `Invocation`, independent of how it was spelled (`-c`, `--continue`).
public struct OptionName: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    public static let long: OptionName = "long"
    public static let byTime: OptionName = "time"
    public static let bySize: OptionName = "size"
    public static let reverse: OptionName = "reverse"
    public static let json: OptionName = "json"
    public static let `continue`: OptionName = "continue"
    public static let output: OptionName = "output"
    public static let new: OptionName = "new"
    public static let force: OptionName = "force"
    public static let deleteAfter: OptionName = "delete-after"
    public static let save: OptionName = "save"
    public static let thumbs: OptionName = "thumbs"
    public static let onePerLine: OptionName = "one-per-line"
    public static let humanSizes: OptionName = "human-readable"
    public static let all: OptionName = "all"
    public static let clear: OptionName = "clear"
}

extension OptionSpec {
    /// `--json`, shared by the commands that can print data instead of text.
    public static let json = OptionSpec(.json, long: "json", "print JSON instead of text")
}

/// An option: its short and long spellings, the value it takes if any, and its help line.
public struct OptionSpec: Sendable, Hashable {
    public let name: OptionName
    public let short: Character?
    public let long: String?
    /// The value's placeholder (`DIR`) and kind, or nil for a flag.
    public let value: ArgumentSpec?
    public let summary: String

    public init(
        _ name: OptionName, short: Character? = nil, long: String? = nil, value: ArgumentSpec? = nil,
        _ summary: String
    ) {
        self.name = name
        self.short = short
        self.long = long
        self.value = value
        self.summary = summary
    }

    /// The spellings a user can type, short first: `["-o", "--output"]`.
    public var spellings: [String] {
        [short.map { "-\($0)" }, long.map { "--\($0)" }].compactMap { $0 }
    }

    /// The option as shown in a synopsis: `-o DIR`, `--json`.
    public var usage: String {
        let spelling = short.map { "-\($0)" } ?? "--\(long ?? name.rawValue)"
        return value.map { "\(spelling) \($0.placeholder)" } ?? spelling
    }
}

/// A term and what it means, one line of a list in `help CMD` (a setting and its values, a prompt token).
public struct HelpEntry: Sendable, Hashable {
    public let term: String
    public let text: String
    public init(_ term: String, _ text: String) {
        self.term = term
        self.text = text
    }
}

/// A titled list in `help CMD` and the man page, after the options (`settings:` for `set`).
public struct HelpSection: Sendable, Hashable {
    public let title: String
    public let entries: [HelpEntry]
    public init(_ title: String, _ entries: [HelpEntry]) {
        self.title = title
        self.entries = entries
    }
}

/// One command: names, help texts, options and positional arguments.
public struct CommandSpec: Sendable, Hashable {
    public let id: CommandID
    public let aliases: [String]
    public let area: CommandArea
    /// One line for the command list.
    public let summary: String
    /// A paragraph for `help CMD`.
    public let details: String
    public let options: [OptionSpec]
    public let arguments: [ArgumentSpec]
    /// Lines a user could type, shown under `examples:` in `help CMD` and the man page.
    public let examples: [String]
    /// Further lists for `help CMD` (a setting per line for `set`).
    public let sections: [HelpSection]
    /// Every word is an argument, `-l` included, for the command to hand on (`lls -l`, `alias`).
    public let passesOptions: Bool
    /// The command may end with `&` and run as a job while the prompt goes on (`fetch`, `import`).
    public let runsInBackground: Bool

    public init(
        _ id: CommandID, aliases: [String] = [], area: CommandArea, options: [OptionSpec] = [],
        arguments: [ArgumentSpec] = [], summary: String, details: String = "", examples: [String] = [],
        sections: [HelpSection] = [], passesOptions: Bool = false, runsInBackground: Bool = false
    ) {
        self.runsInBackground = runsInBackground
        self.passesOptions = passesOptions
        self.examples = examples
        self.sections = sections
        self.id = id
        self.aliases = aliases
        self.area = area
        self.summary = summary
        self.details = details
        self.options = options
        self.arguments = arguments
    }

    /// The canonical name.
    public var name: String { id.rawValue }

    /// The fewest and most positional words accepted (`nil` = no upper limit).
    public var argumentCount: (min: Int, max: Int?) {
        var min = 0
        var max: Int? = 0
        for argument in arguments {
            switch argument.arity {
            case .one: min += 1; max = max.map { $0 + 1 }
            case .optional: max = max.map { $0 + 1 }
            case .oneOrMore: min += 1; max = nil
            case .zeroOrMore: max = nil
            }
        }
        return (min, max)
    }

    /// The spec of the positional argument at `index`, repeating the last one when it takes many.
    public func argument(at index: Int) -> ArgumentSpec? {
        if index < arguments.count { return arguments[index] }
        guard let last = arguments.last, last.arity == .zeroOrMore || last.arity == .oneOrMore else { return nil }
        return last
    }

    /// The option spelled `-x` (`short`).
    public func option(short: Character) -> OptionSpec? { options.first { $0.short == short } }
    /// The option spelled `--long`.
    public func option(long: String) -> OptionSpec? { options.first { $0.long == long } }

    /// The usage line: `fetch [-c] [-o DIR] [NAME|GLOB...]`.
    public var synopsis: String { synopsis(invokedAs: nil) }

    /// The usage line with the command typed as `invokedAs` (`mediashell serve [-l HOST:PORT] ...`).
    public func synopsis(invokedAs: String?) -> String {
        synopsis(options: options.map { "[\($0.usage)]" }, name: invokedAs ?? name)
    }

    /// The synopsis with the options as one `[OPTIONS]`, for the command list.
    public var shortSynopsis: String { shortSynopsis(invokedAs: nil) }

    /// The short synopsis with the command typed as `invokedAs`.
    public func shortSynopsis(invokedAs: String?) -> String {
        synopsis(options: options.isEmpty ? [] : ["[OPTIONS]"], name: invokedAs ?? name)
    }

    private func synopsis(options shown: [String], name: String) -> String {
        var parts = [name]
        parts += shown
        var positional = ""
        var openOptional = 0
        for argument in arguments {
            let separator = positional.isEmpty ? "" : " "
            switch argument.arity {
            case .one: positional += separator + argument.placeholder
            case .oneOrMore: positional += separator + argument.placeholder + "..."
            case .zeroOrMore: positional += separator + "[\(argument.placeholder)...]"
            case .optional:
                positional += separator + "[" + argument.placeholder
                openOptional += 1
            }
        }
        positional += String(repeating: "]", count: openOptional)
        if !positional.isEmpty { parts.append(positional) }
        return parts.joined(separator: " ")
    }
}
