import MediaFormats

/// What an import would do, as `import --list` and `import --dry-run` say it: each file placed so far and
/// what becomes of it, and the totals.
public struct ImportPreview: Sendable {
    /// One file of the import: where it goes and what the run would do with it.
    public struct Item: Sendable {
        public enum Action: Sendable, Equatable {
            /// Download it (continuing a `.part` of `partBytes`, or replacing a different file).
            case fetch(partBytes: UInt64, overwrite: Bool)
            /// The same file is at the destination already: recorded in the ledger, not downloaded.
            case alreadyThere
            /// The ledger says it was imported: left alone.
            case imported
        }

        public var file: MediaFile
        public var action: Action
        /// The local path (for `.imported`, where it went then).
        public var destination: String
        /// The pattern's name was taken by a different file: this one got a unique name.
        public var renamed: Bool
        /// The capture time (shifted as `--shift` asks).
        public var captureTime: CaptureTime?
        /// For `.imported`: the card whose import brought it home; nil when this camera's own ledger has it.
        public var importedFrom: String?
        /// Nonsense times (`EXIF 1970`) were passed over for it.
        public var hasNonsenseDates: Bool

        public init(
            file: MediaFile, action: Action, destination: String, renamed: Bool, captureTime: CaptureTime?,
            importedFrom: String?, hasNonsenseDates: Bool
        ) {
            self.file = file
            self.action = action
            self.destination = destination
            self.renamed = renamed
            self.captureTime = captureTime
            self.importedFrom = importedFrom
            self.hasNonsenseDates = hasNonsenseDates
        }
    }

    /// The files placed so far, in order.
    public var items: [Item]
    /// How many of `items` would be downloaded.
    public var filesToFetch: Int
    /// Bytes still to download, the groups not yet placed included; what a `.part` holds not counted.
    public var bytesToFetch: UInt64
    /// How many of `items` the ledger says were imported.
    public var alreadyImported: Int
    /// How many of `items` are at their destination already.
    public var alreadyThere: Int
    /// The seconds added to every capture time (`--shift`).
    public var shift: Double
    /// The files other cards' imports brought home, by card, in the order of their first file.
    public var importedFromOtherCards: [(card: String, count: Int)]

    public init(
        items: [Item], filesToFetch: Int, bytesToFetch: UInt64, alreadyImported: Int, alreadyThere: Int, shift: Double,
        importedFromOtherCards: [(card: String, count: Int)]
    ) {
        self.items = items
        self.filesToFetch = filesToFetch
        self.bytesToFetch = bytesToFetch
        self.alreadyImported = alreadyImported
        self.alreadyThere = alreadyThere
        self.shift = shift
        self.importedFromOtherCards = importedFromOtherCards
    }
}
