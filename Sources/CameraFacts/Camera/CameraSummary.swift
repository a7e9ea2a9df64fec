/// Who the camera is and what it can do.
public struct CameraSummary: Sendable {
    public var manufacturer: String
    public var model: String
    public var version: String
    public var serialNumber: String
    /// Where it was opened, e.g. "ptpip:127.0.0.1:15740".
    public var location: String
    public var canListInOneRequest: Bool
    public var canReadRanges: Bool
    public var canDelete: Bool
    public var canCapture: Bool
    public var hasThumbnails: Bool
    /// SendObjectInfo and SendObject: `put`, `mkdir`.
    public var canUpload: Bool = false
    /// The dialect the camera is spoken to in (standard PTP, Canon EOS, Nikon...).
    public var dialect: DialectKind = .standard

    package init(
        manufacturer: String, model: String, version: String, serialNumber: String, location: String,
        canListInOneRequest: Bool, canReadRanges: Bool, canDelete: Bool, canCapture: Bool, hasThumbnails: Bool,
        canUpload: Bool = false, dialect: DialectKind = .standard
    ) {
        self.manufacturer = manufacturer
        self.model = model
        self.version = version
        self.serialNumber = serialNumber
        self.location = location
        self.canListInOneRequest = canListInOneRequest
        self.canReadRanges = canReadRanges
        self.canDelete = canDelete
        self.canCapture = canCapture
        self.hasThumbnails = hasThumbnails
        self.canUpload = canUpload
        self.dialect = dialect
    }
}

/// A store on the camera, e.g. an SD card.
public struct StorageSummary: Sendable, Equatable {
    public var id: UInt32
    public var label: String
    public var description: String
    public var capacity: UInt64
    public var free: UInt64
    /// Its StorageInfo says read-only (AccessCapability 1, or 2: read-only but for deletes).
    public var readOnly: Bool
    /// Its files may be deleted: a read-write store, or one whose StorageInfo allows deletes only.
    public var deletesAllowed = true

    package init(
        id: UInt32, label: String, description: String, capacity: UInt64, free: UInt64, readOnly: Bool,
        deletesAllowed: Bool = true
    ) {
        self.id = id
        self.label = label
        self.description = description
        self.capacity = capacity
        self.free = free
        self.readOnly = readOnly
        self.deletesAllowed = deletesAllowed
    }
}

/// The dialects this program speaks.
public enum DialectKind: String, Sendable, CaseIterable {
    /// PIMA 15740 and MTP, as the standard says; what every camera without a dialect gets.
    case standard
    case canonEOS = "canon-eos"
    case nikon
    case fujiX = "fuji-x"

    /// How `summary` names it.
    public var displayName: String {
        switch self {
        case .standard: "standard PTP"
        case .canonEOS: "Canon EOS"
        case .nikon: "Nikon"
        case .fujiX: "Fujifilm X"
        }
    }
}
