/// A command-line mistake, printed with the usage; `isHelp` means the user asked for the usage.
public struct ArgumentError: Error, CustomStringConvertible {
    public let description: String
    public let isHelp: Bool
    public init(_ description: String, isHelp: Bool = false) {
        self.description = description
        self.isHelp = isHelp
    }
}
