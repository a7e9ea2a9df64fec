/// Like the seed's file-list states.
public enum CatalogState: String, Sendable {
    /// Not read yet, or thrown away after the stores changed.
    case reset
    /// Being read.
    case syncing
    case upToDate = "up-to-date"
    /// Read, but the device reported changes not yet fetched, or a folder failed to list.
    case incomplete
    /// Deletes are under way.
    case deleting
}

/// The catalog at one moment, for the words of `state`, `refresh` and `summary`.
public struct CatalogStatus: Sendable, Equatable {
    public var state: CatalogState
    /// The files in the catalog (folders not counted).
    public var fileCount: Int
    /// The folders read.
    public var folderCount: Int
    /// Set when the last reload read no file although the camera named objects.
    public var unreadable: UnreadableListing?
    /// Why the catalog is incomplete after its last reload (empty when nothing was left out).
    public var incompleteBecause: [String]

    public init(
        state: CatalogState, fileCount: Int, folderCount: Int, unreadable: UnreadableListing?,
        incompleteBecause: [String]
    ) {
        self.state = state
        self.fileCount = fileCount
        self.folderCount = folderCount
        self.unreadable = unreadable
        self.incompleteBecause = incompleteBecause
    }
}
