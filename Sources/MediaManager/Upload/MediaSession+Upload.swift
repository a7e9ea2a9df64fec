import Foundation
import POSIX
import PTP

/// Uploads through the session, so the catalog learns of each new file and folder at once.
extension MediaSession {
    /// Why an upload target is refused before anything is sent.
    public struct UploadRefusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Sends the local file at `path` as `name` into catalog folder `folder` ("" the top); returns the new
    /// file as the catalog now lists it (nil when the camera does not describe it).
    @discardableResult
    public func upload(
        _ path: String, as name: String, into folder: String, progress: ((UInt64) -> Void)? = nil,
        cancellation: Cancellation? = nil
    ) throws -> MediaFile? {
        let (storage, parent) = try target(folder)
        let source = try LocalFileSource(path: path, progress: progress, cancellation: cancellation)
        let handle = try camera.upload(source, name: name, storage: storage, parent: parent)
        return learn(handle)
    }

    /// Sends the bytes of `source` as `name` into catalog folder `folder` (a mount's spooled file); returns
    /// the new file as the catalog now lists it. A send that fails leaves nothing on the card (see
    /// `Camera.upload`).
    @discardableResult
    public func upload(_ source: DataSource, as name: String, into folder: String) throws -> MediaFile? {
        let (storage, parent) = try target(folder)
        return learn(try camera.upload(source, name: name, storage: storage, parent: parent))
    }

    /// The store that catalog folder `folder` is on; nil for an unknown folder, or the top of a camera
    /// with several stores (which is no store's).
    public func storageID(ofFolder folder: String) -> UInt32? { catalog.folderHandle(folder)?.storage }

    /// Makes folder `name` in catalog folder `folder`; returns it as the catalog now lists it.
    @discardableResult
    public func makeFolder(_ name: String, in folder: String) throws -> MediaFile? {
        let (storage, parent) = try target(folder)
        return learn(try camera.makeFolder(name, storage: storage, parent: parent))
    }

    private func target(_ folder: String) throws -> (UInt32, UInt32?) {
        guard let location = catalog.folderHandle(folder) else {
            if folder.isEmpty {
                // The top of a camera with several stores lists the stores: a file goes into one of them.
                throw UploadRefusal(description: "this camera has several stores: go into one first (cd store_...)")
            }
            throw UploadRefusal(description: "no such folder on the camera: /\(folder)")
        }
        try refuseReadOnly(location.storage)
        return (location.storage, location.id)
    }

    /// Refuses a store whose StorageInfo says it is read-only (AccessCapability 1, or 2: deletes only),
    /// before any upload is sent: such a camera may list SendObjectInfo all the same (QEMU's read-only
    /// card does) and then stall or fail the send.
    private func refuseReadOnly(_ storage: UInt32) throws {
        guard storage != 0, storage != 0xFFFF_FFFF, let info = try? camera.session.getStorageInfo(storage),
            info.isReadOnly
        else { return }
        let deletes = info.accessCapability == StorageInfo.AccessCapability.readOnlyWithDeletion.rawValue
        throw UploadRefusal(
            description: "the storage is read-only (its StorageInfo says so\(deletes ? "; it allows deletes only" : ""))")
    }

    private func learn(_ handle: UInt32) -> MediaFile? {
        catalog.apply(.added(handle))
        try? catalog.applyPendingChanges()
        return catalog.file(id: handle)
    }
}
