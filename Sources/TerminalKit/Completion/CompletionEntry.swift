/// One name offered by completion: a file or a folder.
public struct CompletionEntry: Sendable, Hashable {
    public let name: String
    public let isFolder: Bool

    public init(_ name: String, isFolder: Bool = false) {
        self.name = name
        self.isFolder = isFolder
    }
}
