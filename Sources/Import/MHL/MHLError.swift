/// Why an ASC MHL history cannot be read or extended: the file, and what is wrong with it. A history is
/// someone else's file as often as ours, so every fault in it is one of these, never a crash.
public struct MHLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The history's file (a generation, the chain) or folder.
    public let path: String
    public let detail: String

    public init(_ path: String, _ detail: String) {
        self.path = path
        self.detail = detail
    }

    public var description: String { "the ASC MHL history \(path) cannot be used: \(detail)" }
}
