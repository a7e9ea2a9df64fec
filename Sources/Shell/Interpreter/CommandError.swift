/// Why a command failed, in words a user can act on; the interpreter prefixes the command's name.
public struct CommandError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// A command stopped by Ctrl-C after it said where it stopped; a script does not go on after it.
struct CommandInterrupted: Error {}

/// A failure already reported (by a script run with `source`): the caller stops without a second message.
struct FailureReported: Error {}
