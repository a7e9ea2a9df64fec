import Foundation
import MediaFormats
import PTP

/// One folder as the device listed it, after everything that made no sense was dropped: the files and
/// folders, and what could not be read (each object lost, with why) or had to be repaired.
public struct FolderListing: Sendable {
    public var files: [MediaFile] = []
    /// Objects left out because the device's description of them could not be read.
    public var lost: [ObjectProblem] = []
    /// Objects kept, but whose description needed repair (a name that was not valid UTF-16).
    public var repaired: [ObjectProblem] = []
}

extension Camera {
    /// The objects directly in `folder` (nil: the root of `storage`), with `folderPath` as their folder.
    /// Uses one GetObjectPropList request where the device has it and its answer makes sense; else (and
    /// for the rest of the session, once an answer made no sense) GetObjectHandles plus one GetObjectInfo
    /// per object. Never trusts the tree: the folder itself, handles 0 and 0xFFFFFFFF, repeated handles and
    /// objects whose parent is another folder are dropped; one unreadable object is reported, not thrown.
    public func list(folder: UInt32?, storage: UInt32, folderPath: String) throws -> FolderListing {
        if propListWorks {
            do {
                if let listing = try listWithPropList(folder: folder, storage: storage, folderPath: folderPath) {
                    return listing
                }
            } catch let error as PTPError where error.responseCode != nil || error.isMalformed {
                // Refused (some devices answer InvalidObjectHandle for folders they have not scanned yet) or
                // unreadable: the plain operations below still work on such devices.
            }
            setPropListWorks(false)
        }
        return try listWithObjectInfo(folder: folder, storage: storage, folderPath: folderPath)
    }

    /// The listing from one GetObjectPropList, or nil when the answer does not make sense for `folder`
    /// (it holds the folder itself, the root, or objects of another folder: the device ignored Depth).
    /// Fields the listing can check are not trusted: a StorageID that is no store is the store listed,
    /// a ParentObject that is no folder is the folder listed.
    private func listWithPropList(folder: UInt32?, storage: UInt32, folderPath: String) throws -> FolderListing? {
        let objects = try session.listObjects(handle: folder ?? 0, depth: 1)
        var listing = FolderListing()
        listing.files.reserveCapacity(objects.count)
        var seen = Set<UInt32>(minimumCapacity: objects.count)
        let zone = TimeZone.current
        let stores = knownStores
        var kinds = ParentKinds(objects)
        for object in objects {
            let handle = object.handle
            guard handle != 0, handle != 0xFFFF_FFFF, handle != folder else { return nil }
            var misplaced: UInt32?
            if let parent = object.parent.map({ Self.normalizedParent(UInt32(truncatingIfNeeded: $0)) }), parent != (folder ?? 0) {
                // The root, or a folder: the device answered for another folder than the one asked.
                if parent == 0 { return nil }
                if parent != handle, try kinds.isFolder(parent, on: self) { return nil }
                misplaced = parent
            }
            if folder == nil, let s = object.storageID.map({ UInt32(truncatingIfNeeded: $0) }), s != storage {
                if stores.contains(s) { continue }  // another store's root object
                if stores.count > 1 { return nil }  // no store: which one it is in, only GetObjectHandles can say
            }
            guard seen.insert(handle).inserted else { continue }
            let before = listing.files.count
            try add(object, storage: storage, folder: folder, folderPath: folderPath, zone: zone, into: &listing)
            if let misplaced, listing.files.count > before, let file = listing.files.last {
                listing.repaired.append(ObjectProblem(
                    folder: folderPath, handle: handle, name: file.name, cause: .parentNotAFolder(misplaced)))
            }
        }
        return listing
    }

    /// Adds one object of a property list; one without a name is asked for its ObjectInfo. Dates without a
    /// zone are read in `zone` (the host's: asked once per listing, not per object).
    func add(
        _ object: ListedObject, storage: UInt32, folder: UInt32?, folderPath: String, zone: TimeZone,
        into listing: inout FolderListing
    ) throws {
        guard let name = object.displayName, !name.isEmpty else {
            var kinds = ParentKinds([])
            try describe(object.handle, folder: folder, storage: storage, folderPath: folderPath, into: &listing, kinds: &kinds)
            return
        }
        let file = Self.file(object, name: name, storage: storage, folder: folder, folderPath: folderPath, zone: zone)
        noteRepairs(of: file, into: &listing)
        listing.files.append(file)
    }

    private func listWithObjectInfo(folder: UInt32?, storage: UInt32, folderPath: String) throws -> FolderListing {
        var listing = FolderListing()
        var seen = Set<UInt32>()
        var kinds = ParentKinds([])
        for handle in try session.getObjectHandles(storage: storage, parent: folder ?? 0xFFFF_FFFF) {
            guard handle != 0, handle != 0xFFFF_FFFF, handle != folder, seen.insert(handle).inserted else { continue }
            try describe(handle, folder: folder, storage: storage, folderPath: folderPath, into: &listing, kinds: &kinds)
        }
        return listing
    }

    /// Adds one object by its ObjectInfo, unless it belongs to another folder; an unreadable ObjectInfo, or
    /// one without a name, costs that object only. Only a connection failure is thrown. The object was
    /// listed in `folder` of `storage`: a StorageID that says otherwise is not taken, nor a ParentObject
    /// that is no folder (`kinds` remembers what the device said of each parent asked about).
    func describe(
        _ handle: UInt32, folder: UInt32?, storage: UInt32, folderPath: String, into listing: inout FolderListing,
        kinds: inout ParentKinds
    ) throws {
        var file: MediaFile
        do {
            file = try self.file(handle, folderPath: folderPath)
        } catch let error as PTPError where error.responseCode != nil || error.isMalformed {
            listing.lost.append(ObjectProblem(folder: folderPath, handle: handle, name: nil, cause: .undescribed(error)))
            return
        }
        var misplaced: UInt32?
        if file.parentID != (folder ?? 0) {
            let parent = file.parentID
            // Another folder's object (a device that ignores GetObjectHandles' parent): listed there.
            if parent == 0 { return }
            if parent != handle, try kinds.isFolder(parent, on: self) { return }
            misplaced = parent
            file.parentID = folder ?? 0
        }
        if file.name.isEmpty {
            // Kept, under a name the catalog makes up ("unnamed"), and said; a card of nothing else is an error.
            listing.repaired.append(ObjectProblem(
                folder: folderPath, handle: handle, name: nil,
                cause: .nameless(format: file.format, size: file.size, parent: misplaced ?? file.parentID)))
        }
        file.storageID = storage
        listing.files.append(file)
        if let misplaced {
            listing.repaired.append(ObjectProblem(folder: folderPath, handle: handle, name: file.name, cause: .parentNotAFolder(misplaced)))
        }
        noteRepairs(of: file, into: &listing)
    }

    func noteRepairs(of file: MediaFile, into listing: inout FolderListing) {
        // U+FFFD is EF BF BD in UTF-8: a name without the byte 0xEF (every ASCII name) has none.
        if file.name.utf8.contains(0xEF), file.name.unicodeScalars.contains("\u{FFFD}") {
            listing.repaired.append(ObjectProblem(folder: file.folder, handle: file.id, name: file.name, cause: .invalidName))
        }
        if !file.isFolder, file.kind == .other, !file.format.isDefinedByStandard {
            listing.repaired.append(ObjectProblem(
                folder: file.folder, handle: file.id, name: file.name, cause: .unknownFormat(file.format)))
        }
    }

    /// ParentObject as the root: 0, though some devices say 0xFFFFFFFF.
    static func normalizedParent(_ parent: UInt32) -> UInt32 { parent == 0xFFFF_FFFF ? 0 : parent }

    static func file(
        _ object: ListedObject, name: String, storage: UInt32, folder: UInt32?, folderPath: String, zone: TimeZone
    ) -> MediaFile {
        let format = ObjectFormatCode(UInt16(truncatingIfNeeded: object.format ?? 0x3000))
        let date = object.dateCreated.flatMap { PTPDateTime.parse($0, assumedZone: zone) }
            ?? object.dateModified.flatMap { PTPDateTime.parse($0, assumedZone: zone) }
        var file = MediaFile(
            id: object.handle, storageID: storage,
            parentID: folder ?? 0, name: name, folder: folderPath, kind: MediaKind(fileName: name, format: format),
            isFolder: format == .association, format: format, size: object.size ?? 0,
            captureDate: date, video: nil)
        if file.kind.isVideo {
            let duration = object.duration.map { Double($0) / 1000 }
            let width = object.width.flatMap { $0 > 0 ? Int($0) : nil }
            let height = object.height.flatMap { $0 > 0 ? Int($0) : nil }
            let fps = object.framesPerThousandSeconds.map { Double($0) / 1000 }
            if duration != nil || width != nil {
                file.video = VideoDetails(duration: duration, width: width, height: height, framesPerSecond: fps)
            }
        }
        return file
    }
}

extension PTPError {
    /// Bytes that did not decode, or more than allowed: a fault of one dataset, not of the connection.
    var isMalformed: Bool {
        switch self {
        case .malformed, .dataTooLarge: true
        default: false
        }
    }
}

/// What a listing learned of the handles objects name as their parent: folders or not. The objects of a
/// property-list answer say it of themselves; any other handle is asked of the device once (GetObjectInfo),
/// and one that cannot be described is no folder.
struct ParentKinds {
    private var known: [UInt32: Bool] = [:]

    init(_ objects: [ListedObject]) {
        let folder = UInt64(ObjectFormatCode.association.rawValue)
        for object in objects where object.format != nil { known[object.handle] = object.format == folder }
    }

    mutating func isFolder(_ handle: UInt32, on camera: Camera) throws -> Bool {
        if handle == 0 { return true }
        if let answer = known[handle] { return answer }
        let answer: Bool
        do {
            answer = try camera.session.getObjectInfo(handle).isFolder
        } catch let error as PTPError where error.responseCode != nil || error.isMalformed {
            answer = false
        }
        known[handle] = answer
        return answer
    }
}
