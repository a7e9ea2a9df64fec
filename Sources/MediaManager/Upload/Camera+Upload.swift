import Foundation
import PTP

/// Uploads where the camera offers them: a file is SendObjectInfo (the name, format and size, in a folder)
/// then SendObject (the bytes); a folder is SendObjectInfo alone. Only sent where DeviceInfo lists both
/// operations; a send that fails after the camera made the object deletes it again, so no partial file
/// stays on the card.
extension Camera {
    /// True when DeviceInfo lists SendObjectInfo and SendObject.
    public var canUpload: Bool { session.supports(.sendObjectInfo) && session.supports(.sendObject) }

    /// Sends `source` as `name` into folder `parent` (nil: the top) of `storage`; returns the new object's
    /// handle. When SendObject fails, the object SendObjectInfo created is deleted (where DeleteObject is
    /// offered) before the error is thrown.
    public func upload(_ source: DataSource, name: String, storage: UInt32, parent: UInt32?) throws -> UInt32 {
        guard canUpload else { throw CameraCapabilityError.notOffered("uploads (SendObjectInfo, SendObject)") }
        var info = ObjectInfo()
        info.storageID = storage
        info.format = Self.uploadFormat(for: name)
        info.compressedSize = UInt32(clamping: min(source.length, 0xFFFF_FFFF))
        info.parentObject = parent ?? 0
        info.filename = name
        let handle = try session.sendObjectInfo(info, storage: storage, parent: parent ?? 0xFFFF_FFFF)
        do {
            try session.sendObject(source)
        } catch {
            if session.supports(.deleteObject), handle != 0 { try? session.deleteObject(handle) }
            throw error
        }
        return handle
    }

    /// Makes folder `name` in `parent` (nil: the top) of `storage`; returns its handle.
    public func makeFolder(_ name: String, storage: UInt32, parent: UInt32?) throws -> UInt32 {
        guard session.supports(.sendObjectInfo) else {
            throw CameraCapabilityError.notOffered("making folders (SendObjectInfo)")
        }
        var info = ObjectInfo()
        info.storageID = storage
        info.format = .association
        info.associationType = 1
        info.parentObject = parent ?? 0
        info.filename = name
        return try session.sendObjectInfo(info, storage: storage, parent: parent ?? 0xFFFF_FFFF)
    }

    /// The format code an upload is announced with, from the name's extension (0x3000 when it says nothing).
    static func uploadFormat(for name: String) -> ObjectFormatCode {
        switch (name as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": .exifJPEG
        case "tif", "tiff": .tiff
        case "dng": .dng
        case "heic", "heif": .heif
        case "mp4": .mp4Container
        case "mov": .quickTime
        case "txt": .text
        default: .undefined
        }
    }
}
