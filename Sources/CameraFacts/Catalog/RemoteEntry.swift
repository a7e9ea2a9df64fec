/// A camera file or folder that a name or pattern named, and the text to show for it (the folder part as
/// typed, then the name).
public struct RemoteEntry: Sendable, Equatable {
    /// The catalog path ("" for the top folder).
    public let path: String
    /// The catalog's description; nil only for the top folder (and store folders of some cameras).
    public let file: MediaFile?
    public let isFolder: Bool
    /// How the user wrote it, or how a pattern's match reads: `100MEDIA/DJI_0001.JPG`.
    public let shown: String

    public init(path: String, file: MediaFile?, isFolder: Bool, shown: String) {
        self.path = path
        self.file = file
        self.isFolder = isFolder
        self.shown = shown
    }

    /// True when the entry's own name begins with `.`, as hidden files do.
    public var isHidden: Bool {
        let name = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path.utf8[path.utf8.index(after: $0)...] } ?? path.utf8[...]
        return name.first == UInt8(ascii: ".")
    }
}
