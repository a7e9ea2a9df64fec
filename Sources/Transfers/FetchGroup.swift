import MediaManager

/// Files of one fetch that go to one local folder (`fetch -r` makes one per folder of the tree).
public struct FetchGroup: Sendable {
    public let folder: String
    public let files: [MediaFile]

    public init(folder: String, files: [MediaFile]) {
        self.folder = folder
        self.files = files
    }
}
