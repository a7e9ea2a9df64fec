/// Why a command failed, in words a user can act on; the interpreter prefixes the command's name.
public struct CommandError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
