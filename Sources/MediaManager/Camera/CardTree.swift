import Foundation
import PTP

/// The whole card from one GetObjectPropList (from the root, Depth all): every folder's objects, so that
/// opening a camera costs one listing request whatever the card's shape (a DCF card of 10,000 files in
/// 11 folders: one request, not 13). Kept only when the answer makes sense as a tree; else the catalog
/// reads folder by folder as before.
struct CardTree {
    /// Every object of the answer, once: the groups below hold places in it (a copy per group would
    /// double the memory of a card of 100,000 objects).
    private let all: [ListedObject]
    /// The places of the objects at each store's root, by storage ID.
    private var roots: [UInt32: [Int]] = [:]
    /// The places of the objects in each folder, by the folder's handle.
    private var children: [UInt32: [Int]] = [:]
    /// Folders at the deepest level the answer reached: a device that cuts Depth short (or answers Depth
    /// 1, as some do) leaves them empty although they are not, so they are read on their own.
    private var unsure: Set<UInt32> = []
    /// The folders the answer holds, and so can vouch for (unless unsure).
    private var folders: Set<UInt32> = []

    /// Calls `body` with each object of the store's root (`folder` nil) or of a folder, in the answer's
    /// order, each read in place (not copied: an object is some 200 bytes and a dozen references); false
    /// when the tree cannot say what the folder holds.
    func forEachObject(in folder: UInt32?, storage: UInt32, count: (Int) -> Void, _ body: (borrowing ListedObject) throws -> Void) rethrows -> Bool {
        let places: [Int]
        if let folder {
            guard folders.contains(folder), !unsure.contains(folder) else { return false }
            places = children[folder] ?? []
        } else {
            places = roots[storage] ?? []
        }
        count(places.count)
        for place in places { try body(all[place]) }
        return true
    }

    /// Sorts `objects` into a tree, or nil when they do not make one: an object at handle 0 or
    /// 0xFFFFFFFF (the root or the folder asked about, listed as an object: uMTP-Responder), one without a
    /// name or a parent, a parent that is not a folder of the answer (or the object itself), a store that
    /// is not one of several `storages`, objects that cannot be reached from a root (a loop). An empty answer is
    /// no proof of an empty card either (a device may answer nothing for a Depth it does not know).
    init?(_ objects: [ListedObject], storages: [UInt32]) {
        guard !objects.isEmpty, let onlyStore = storages.first else { return nil }
        all = objects
        for object in objects {
            guard object.handle != 0, object.handle != 0xFFFF_FFFF, object.displayName?.isEmpty == false, object.parent != nil else {
                return nil
            }
            if object.format == UInt64(ObjectFormatCode.association.rawValue) { folders.insert(object.handle) }
        }
        var rootCount = 0
        for (place, object) in objects.enumerated() {
            let parent = Camera.normalizedParent(UInt32(truncatingIfNeeded: object.parent!))
            if parent == 0 {
                var store = object.storageID.map { UInt32(truncatingIfNeeded: $0) } ?? (storages.count == 1 ? onlyStore : 0)
                // A StorageID that is no store (Canon EOS over PTP/IP): with one store, that one.
                if !storages.contains(store), storages.count == 1 { store = onlyStore }
                guard storages.contains(store) else { return nil }
                roots[store, default: []].append(place)
                rootCount += 1
            } else {
                guard parent != object.handle, folders.contains(parent) else { return nil }
                children[parent, default: []].append(place)
            }
        }
        // Every object reachable from a root, each folder once; the deepest level's folders are unsure.
        var level = roots.values.flatMap { $0 }.map { objects[$0].handle }.filter { folders.contains($0) }
        var reached = rootCount
        var visited = Set(level)
        while !level.isEmpty {
            var next: [UInt32] = []
            for folder in level {
                for place in children[folder] ?? [] {
                    reached += 1
                    let child = objects[place].handle
                    if folders.contains(child) {
                        guard visited.insert(child).inserted else { return nil }
                        next.append(child)
                    }
                }
            }
            if level.allSatisfy({ children[$0] == nil }) { unsure = Set(level) }
            level = next
        }
        guard reached == objects.count else { return nil }
    }
}

extension Camera {
    /// The whole card in one request where the device lists GetObjectPropList; nil when it refuses Depth
    /// all, answers something that is no tree, or an earlier answer made no sense (the catalog then reads
    /// folder by folder). Only a connection failure is thrown.
    func tree(storages: [UInt32]) throws -> CardTree? {
        guard propListWorks, treeListingWanted, !storages.isEmpty else { return nil }
        do {
            return CardTree(try session.listObjects(handle: 0, depth: 0xFFFF_FFFF), storages: storages)
        } catch let error as PTPError where error.responseCode != nil || error.isMalformed {
            return nil
        }
    }

    /// The listing of a folder from `tree`, with the checks and repairs of a folder's own listing; nil
    /// when the tree cannot say what the folder holds.
    func list(folder: UInt32?, storage: UInt32, folderPath: String, from tree: CardTree) throws -> FolderListing? {
        var listing = FolderListing()
        let zone = TimeZone.current
        let known = try tree.forEachObject(in: folder, storage: storage, count: { listing.files.reserveCapacity($0) }) { object in
            try add(object, storage: storage, folder: folder, folderPath: folderPath, zone: zone, into: &listing)
        }
        return known ? listing : nil
    }
}
