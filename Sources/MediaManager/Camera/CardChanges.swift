/// What the card takes: the changes DeviceInfo lists (DeleteObject; SendObjectInfo with SendObject), kept to the
/// stores whose StorageInfo allows them. A camera may list them for a card that is write-protected (a locked
/// SD card, `serve` without --writable, QEMU's read-only usb-mtp card) and refuse each change when asked.
public struct CardChanges: Sendable, Equatable {
    /// DeviceInfo lists DeleteObject.
    public let cameraDeletes: Bool
    /// DeviceInfo lists SendObjectInfo and SendObject.
    public let cameraUploads: Bool
    /// The stores known, and those of them that refuse deletes, and new files and folders.
    private let stores: Set<UInt32>
    private let refusingDeletes: Set<UInt32>
    private let refusingUploads: Set<UInt32>

    /// From the camera's summary and its stores' StorageInfo (none known: DeviceInfo alone decides).
    public init(_ summary: CameraSummary, storages: [StorageSummary]) {
        cameraDeletes = summary.canDelete
        cameraUploads = summary.canUpload
        stores = Set(storages.map(\.id))
        refusingDeletes = Set(storages.filter { !$0.deletesAllowed }.map(\.id))
        refusingUploads = Set(storages.filter(\.readOnly).map(\.id))
    }

    /// Whether files on `storage` may be deleted.
    public func deletes(on storage: UInt32) -> Bool { cameraDeletes && !refusingDeletes.contains(storage) }

    /// Whether new files and folders may be made on `storage`.
    public func uploads(on storage: UInt32) -> Bool { cameraUploads && !refusingUploads.contains(storage) }

    /// Whether some store takes deletes.
    public var deletes: Bool { cameraDeletes && (stores.isEmpty || stores.contains { deletes(on: $0) }) }

    /// Whether some store takes new files and folders.
    public var uploads: Bool { cameraUploads && (stores.isEmpty || stores.contains { uploads(on: $0) }) }

    /// The camera lists changes, and every store refuses them: the card is write-protected.
    public var cardRefusesChanges: Bool { (cameraDeletes || cameraUploads) && !deletes && !uploads }
}
