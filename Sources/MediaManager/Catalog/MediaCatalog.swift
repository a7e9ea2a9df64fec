import Foundation
import MediaFormats
import POSIX
import PTP

/// The camera's file list, cached: read once (one request for the whole card where the device allows, else
/// one per folder), kept up to date from device events, and re-read on request. Tab completion and
/// globbing read only the cache.
public final class MediaCatalog: Sendable {
    /// Like the seed's file-list states.
    public typealias State = CatalogState

    public let camera: Camera
    /// The cached tree and what the catalog knows of its reading; only touched inside `cache.withLock`.
    private let cache = Locked(Cache())

    public init(camera: Camera) {
        self.camera = camera
        let token = camera.addChangeHandler { [weak self] change in self?.apply(change) }
        cache.withLock { $0.changeToken = token }
    }

    deinit {
        if let token = cache.withLock({ $0.changeToken }) { camera.removeChangeHandler(token) }
    }

    public var state: State { cache.withLock { cache in cache.storedState } }

    /// A number that changes whenever the cached names change (a reload, an added, removed or changed
    /// file), so that caches built from the catalog (completion indexes) know when to rebuild.
    public var generation: Int { cache.withLock { cache in cache.changeCount } }

    /// Reads the whole tree if it was not read yet (or was reset), and fetches reported additions.
    public func ensureLoaded() throws {
        // A camera that is polled for its changes is asked for them now (at most once a second), so the
        // cache hears of shots taken since even when nothing listens; one that pushes them is not asked.
        if state != .reset { try? camera.catchUpOnChanges() }
        if state == .reset { try reload() } else { try applyPendingChanges() }
    }

    /// True when `ensureLoaded` has nothing to ask the device: the tree was read and no change is pending.
    public var isCurrent: Bool { cache.withLock { cache in cache.storedState != .reset && cache.storedState != .syncing && cache.pendingAdded.isEmpty } }

    /// The deepest nesting read, and the most objects kept: bounds against a device whose tree never ends.
    public static let maximumDepth = 32
    public static let maximumObjects = 1_000_000

    /// Set when the last reload read no file although the camera named objects (none had a name, none
    /// could be described): the catalog holds nothing to trust, and commands that need it say so.
    public var unreadable: UnreadableListing? { cache.withLock { cache in cache.unreadableCard } }

    /// Why the catalog is incomplete after its last reload (empty when nothing was left out).
    public var incompleteBecause: [String] { cache.withLock { cache in cache.gaps } }

    /// The catalog's state and counts at one moment (read under one lock, so they agree).
    public var status: CatalogStatus {
        cache.withLock { cache in
            CatalogStatus(
                state: cache.storedState, fileCount: cache.fileCount, folderCount: cache.folders.count,
                unreadable: cache.unreadableCard, incompleteBecause: cache.gaps)
        }
    }

    /// The warnings (one line each, naming the object) found since the last call: objects lost or repaired.
    public func takeWarnings() -> [String] {
        cache.withLock { cache in
            defer { cache.unreported = [] }
            let fresh = cache.unreported.filter { cache.warned.insert($0).inserted }
            return fresh
        }
    }

    /// Throws the cache away and reads every folder again. Never trusts the tree: each folder is read once
    /// per (store, handle), nesting and the number of objects are bounded, and a folder or an object that
    /// cannot be read is noted (`incompleteBecause`) while the rest is read.
    public func reload() throws {
        setState(.syncing)
        var newFolders: [String: [MediaFile]] = [:]
        var newIDs: [String: (UInt32, UInt32?)] = [:]
        var prefixes: [UInt32: String] = [:]
        var newGaps: [String] = []
        var warnings: [String] = []
        var visited = Set<UInt64>()
        var objects = 0
        var namedFiles = 0
        var lostObjects: [ObjectProblem] = []
        do {
            let storages = try camera.listedStorageIDs()
            if storages.count > 1 {
                for s in storages { prefixes[s] = "store_" + hex8(s) }
                newFolders[""] = storages.map {
                    MediaFile(
                        id: 0, storageID: $0, parentID: 0, name: prefixes[$0]!, folder: "", kind: .other,
                        isFolder: true, format: .association, size: 0, captureDate: nil, video: nil)
                }
            }
            // The whole card in one request where the device can; cache.folders it cannot vouch for are read below.
            let tree = try camera.tree(storages: storages)
            storeLoop: for store in storages {
                let rootPath = prefixes[store] ?? ""
                var queue: [(path: String, id: UInt32?, depth: Int)] = [(rootPath, nil, 0)]
                newIDs[rootPath] = (store, nil)
                visited.insert(UInt64(store) << 32)
                while let (path, id, depth) = queue.popLast() {
                    var listing: FolderListing
                    do {
                        if let tree, let known = try camera.list(folder: id, storage: store, folderPath: path, from: tree) {
                            listing = known
                        } else {
                            listing = try camera.list(folder: id, storage: store, folderPath: path)
                        }
                    } catch let error as PTPError where error.responseCode == .storeNotAvailable && id == nil && storages.count == 1 {
                        // The one slot has no card (its StorageInfo was not asked for: see listedStorageIDs).
                        newFolders[path] = []
                        continue
                    } catch let error as PTPError where error.responseCode != nil || error.isMalformed {
                        newGaps.append("/\(path) could not be read: \(error)")
                        continue
                    }
                    // What a card that yields nothing but these is an error about.
                    lostObjects += listing.lost + listing.repaired.filter(\.isNameless)
                    for lost in listing.lost {
                        newGaps.append("\(lost)")
                        warnings.append("\(lost) (left out)")
                    }
                    warnings += listing.repaired.map(\.description)
                    // Taken out of the listing, so that naming and sorting change the one copy in place.
                    var entries = listing.files
                    listing.files = []
                    // Cameras mostly list a folder in name order: then its names are distinct and sorted
                    // already, which one pass says (no table of 100,000 names, no sort).
                    let inOrder = CatalogNaming.areUsableAndAscending(entries)
                    if !inOrder { CatalogNaming.makeDistinct(&entries) }
                    if objects + entries.count > Self.maximumObjects {
                        entries = Array(entries.prefix(max(0, Self.maximumObjects - objects)))
                        newGaps.append("more than \(Self.maximumObjects) objects: the rest was not read")
                    }
                    objects += entries.count
                    namedFiles += entries.reduce(0) { $0 + ($1.isFolder || ($1.deviceName?.isEmpty ?? $1.name.isEmpty) ? 0 : 1) }
                    if !inOrder { entries.sort { CatalogNaming.bytesPrecede($0.name, $1.name) } }
                    newFolders[path] = entries
                    if objects >= Self.maximumObjects { break storeLoop }
                    // By index: a loop over the records would copy each one (100,000 on a big card).
                    for i in entries.indices where entries[i].isFolder {
                        let e = entries[i]
                        let childPath = path.isEmpty ? e.name : path + "/" + e.name
                        guard visited.insert(UInt64(store) << 32 | UInt64(e.id)).inserted, newIDs[childPath] == nil else { continue }
                        guard depth + 1 <= Self.maximumDepth else {
                            newGaps.append("/\(childPath) is nested deeper than \(Self.maximumDepth) folders: not read")
                            continue
                        }
                        newIDs[childPath] = (store, e.id)
                        queue.append((childPath, e.id, depth + 1))
                    }
                }
            }
        } catch {
            setState(.reset)
            throw error
        }
        // The lookup tables are built before taking the lock, sized once (a card of 100,000 objects would
        // otherwise rehash the table some 17 times while every query waits).
        var newByID: [UInt32: CatalogPlace] = [:]
        newByID.reserveCapacity(objects)
        for (path, list) in newFolders {
            for i in list.indices where list[i].id != 0 { newByID[list[i].id] = CatalogPlace(folder: path, name: list[i].name) }
        }
        var newPathByFolderID: [UInt32: String] = [:]
        for (path, ids) in newIDs { if let id = ids.1 { newPathByFolderID[id] = path } }
        cache.withLock { cache in
            cache.folders = newFolders
            cache.folderIDs = newIDs.mapValues { (storage: $0.0, id: $0.1) }
            cache.pathByFolderID = newPathByFolderID
            cache.byID = newByID
            cache.storePrefixes = prefixes
            cache.pendingAdded = []
            cache.gaps = newGaps
            cache.unreported += warnings
            cache.unreadableCard = namedFiles == 0 && !lostObjects.isEmpty ? UnreadableListing(lost: lostObjects) : nil
            cache.storedState = newGaps.isEmpty && cache.unreadableCard == nil ? .upToDate : .incomplete
            cache.changeCount += 1
        }
    }

    private func setState(_ s: State) { cache.withLock { cache in cache.storedState = s } }

    /// Shows `.deleting` while `body` runs, then the state from before (unless the stores changed meanwhile).
    func whileDeleting<T>(_ body: () throws -> T) rethrows -> T {
        let before = cache.withLock { cache -> State in
            let s = cache.storedState
            cache.storedState = .deleting
            return s
        }
        defer { cache.withLock { cache in if cache.storedState == .deleting { cache.storedState = before } } }
        return try body()
    }

    func sortByName(_ files: [MediaFile]) -> [MediaFile] {
        files.sorted { CatalogNaming.bytesPrecede($0.name, $1.name) }
    }

    // MARK: Queries (cache only, no device requests)

    /// Files and cache.folders directly in `path` ("" is the root), nil when there is no such folder.
    public func contents(of path: String) -> [MediaFile]? { cache.withLock { cache in cache.folders[normalize(path)] } }

    public func isFolder(_ path: String) -> Bool { cache.withLock { cache in cache.folders[normalize(path)] != nil } }

    /// The record at `path`: a binary search of its folder by name (a scan should the order ever not
    /// hold), so that a glob of 10,000 names checks them in 10,000 x 14 steps, not 10,000 x 5,000.
    public func file(atPath path: String) -> MediaFile? {
        let p = normalize(path)
        let (folder, name) = split(p)
        return cache.withLock { cache in
            guard let list = cache.folders[folder] else { return nil }
            var low = 0
            var high = list.count
            while low < high {
                let middle = (low + high) / 2
                if CatalogNaming.bytesPrecede(list[middle].name, name) { low = middle + 1 } else { high = middle }
            }
            if low < list.count, list[low].name == name { return list[low] }
            return list.first { $0.name == name }
        }
    }

    public func file(id: UInt32) -> MediaFile? { cache.withLock { cache in cache.file(id) } }

    /// Every file (not folders) on the card, folder by folder, in one array of the exact size (grown by
    /// appending, it was copied at each doubling: 26 MB at its peak for 100,000 objects, not 11 MB).
    public func allFiles() -> [MediaFile] {
        cache.withLock { cache in
            var files: [MediaFile] = []
            files.reserveCapacity(cache.fileCount)
            for path in cache.folders.keys.sorted() {
                for file in cache.folders[path]! where !file.isFolder { files.append(file) }
            }
            return files
        }
    }

    /// How many files (not folders) `allFiles()` would return, counted in place (the banner and `summary`
    /// ask for it: a copy of every record of a card of 100,000 objects took 26 MB for a number).
    public var fileCount: Int { cache.withLock { cache in cache.fileCount } }

    public var folderPaths: [String] { cache.withLock { cache in cache.folders.keys.sorted() } }

    /// The store and handle of the folder at `path` (nil handle: a store's root); nil when unknown.
    func folderHandle(_ path: String) -> (storage: UInt32, id: UInt32?)? { cache.withLock { cache in cache.folderIDs[normalize(path)] } }

    /// The path of each store's root: "" with one store, "store_XXXXXXXX" with several.
    func storeRoots() -> [String] {
        cache.withLock { cache in cache.storePrefixes.isEmpty ? [""] : cache.storePrefixes.values.sorted() }
    }

    /// The file with the sidecars that travel with it (same folder, same stem): DJI_0042.MP4 with
    /// DJI_0042.SRT and DJI_0042.LRF; IMG_1.CR3 with IMG_1.JPG. The named file comes first.
    public func group(of file: MediaFile) -> [MediaFile] {
        let siblings = cache.withLock { cache in cache.folders[file.folder] ?? [] }
        return [file] + siblings.filter { $0.id != file.id && !$0.isFolder && CatalogNaming.sameStem($0, file) }
    }

    /// The path without empty parts ("/DCIM//100MEDIA/" is "DCIM/100MEDIA"). A path that has none, as
    /// every path the shell builds, is returned as it is: `ls` asks once per name listed.
    func normalize(_ path: String) -> String {
        var previous: UInt8 = UInt8(ascii: "/")
        var clean = true
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") && previous == byte { clean = false; break }
            previous = byte
        }
        if clean && previous != UInt8(ascii: "/") || path.isEmpty { return path }
        return path.split(separator: "/").joined(separator: "/")
    }

    func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    // MARK: Changes

    /// Applies a device change: removals at once (no request), additions queued for `applyPendingChanges`.
    func apply(_ change: CameraChange) {
        cache.withLock { cache in
            switch change {
            case .removed(let id):
                cache.remove(id)
            case .added(let id), .changed(let id):
                guard cache.storedState != .reset else { return }
                if !cache.pendingAdded.contains(id) { cache.pendingAdded.append(id) }
                if cache.storedState == .upToDate { cache.storedState = .incomplete }
            case .storesChanged:
                cache.storedState = .reset
                cache.changeCount += 1
            case .captureComplete:
                break
            }
        }
    }

    /// Describes the objects an ObjectAdded named, now: for a caller that heard the event itself (it may
    /// hear it before the catalog's own handler has), so the objects are in the catalog when this returns.
    public func applyAdded(_ ids: [UInt32]) throws {
        for id in ids { apply(.added(id)) }
        try applyPendingChanges()
    }

    /// Removes a file from the cache after this program deleted it.
    public func forget(_ file: MediaFile) { cache.withLock { cache in cache.remove(file.id) } }

    /// Fetches descriptions of objects the device reported as added or changed. A new folder is read
    /// with what it holds (a camera that makes a folder for a new shot may announce only the folder).
    public func applyPendingChanges() throws {
        let pending = cache.withLock { cache -> [UInt32] in
            defer { cache.pendingAdded = [] }
            return cache.pendingAdded
        }
        guard !pending.isEmpty else { return }
        var failed = false
        for id in pending {
            let described: MediaFile
            do {
                described = try camera.file(id, folderPath: "")
            } catch PTPError.response(.invalidObjectHandle, _, _) {
                cache.withLock { cache in cache.remove(id) }  // added then removed before we asked
                continue
            } catch let error as PTPError where error.responseCode != nil || error.isMalformed {
                cache.withLock { cache in cache.unreported.append("object 0x\(hex8(id)): \(error) (left out)") }
                failed = true
                continue
            }
            // The device's StorageID is checked against the stores listed: one that is no store (Canon EOS
            // over PTP/IP) is the store of the folder the object is in.
            let placed: (path: String, storage: UInt32)? = cache.withLock { cache in
                if described.parentID != 0 {
                    guard let path = cache.pathByFolderID[described.parentID], let folder = cache.folderIDs[path] else { return nil }
                    return (path, folder.storage)
                }
                if cache.storePrefixes.isEmpty {
                    return ("", cache.folderIDs[""]?.storage ?? described.storageID)
                }
                return cache.storePrefixes[described.storageID].map { ($0, described.storageID) }
            }
            guard let placed else {
                failed = true
                continue
            }
            let folderPath = placed.path
            var file = described
            file.folder = folderPath
            // An object lives in its folder's store, whatever its ObjectInfo says (Canon EOS bodies write a
            // StorageID that is no store, 0x10000001 for 0x00010001): listing a new folder in the store it
            // names would be refused (InvalidStorageID) and lose the shot a capture made.
            file.storageID = placed.storage
            let newFolder = cache.withLock { cache -> (path: String, id: UInt32, storage: UInt32)? in
                let before = cache.file(id)
                let wasFolder = before?.isFolder == true
                if let before, wasFolder && file.isFolder {
                    cache.folders[before.folder]?.removeAll { $0.id == id }
                } else {
                    cache.remove(id)
                }
                var list = cache.folders[folderPath] ?? []
                file = CatalogNaming.distinct([file], taken: Set(list.map(\.name)))[0]
                list.append(file)
                cache.folders[folderPath] = sortByName(list)
                cache.byID[id] = CatalogPlace(folder: folderPath, name: file.name)
                cache.changeCount += 1
                guard file.isFolder, !wasFolder else { return nil }
                let path = folderPath.isEmpty ? file.name : folderPath + "/" + file.name
                cache.folders[path] = cache.folders[path] ?? []
                cache.folderIDs[path] = (file.storageID, id)
                cache.pathByFolderID[id] = path
                return (path, id, file.storageID)
            }
            if let newFolder { try readNewFolder(newFolder.path, id: newFolder.id, storage: newFolder.storage) }
        }
        cache.withLock { cache in
            if cache.storedState == .incomplete && cache.pendingAdded.isEmpty && !failed && !cache.someFolderFailed {
                cache.storedState = .upToDate
            }
        }
        if failed { try reload() }
    }

    /// Reads a folder that appeared after the last reload, and the cache.folders in it (bounded as `reload`).
    private func readNewFolder(_ path: String, id: UInt32, storage: UInt32) throws {
        var queue: [(path: String, id: UInt32, depth: Int)] = [(path, id, path.split(separator: "/").count)]
        while let (path, id, depth) = queue.popLast() {
            let listing = try camera.list(folder: id, storage: storage, folderPath: path)
            cache.withLock { cache in
                let entries = CatalogNaming.distinct(listing.files.filter { cache.byID[$0.id] == nil })
                cache.folders[path] = sortByName(entries)
                for e in entries { cache.byID[e.id] = CatalogPlace(folder: path, name: e.name) }
                cache.unreported += listing.lost.map { "\($0) (left out)" } + listing.repaired.map(\.description)
                cache.gaps += listing.lost.map(\.description)
                cache.changeCount += 1
                for e in entries where e.isFolder && depth < Self.maximumDepth {
                    let child = path + "/" + e.name
                    cache.folderIDs[child] = (storage, e.id)
                    cache.pathByFolderID[e.id] = child
                    queue.append((child, e.id, depth + 1))
                }
            }
        }
    }

    /// The files (not cache.folders) among `ids`, with those inside any folder among them: what a capture made.
    public func files(among ids: [UInt32]) -> [MediaFile] {
        cache.withLock { cache in
            var result: [MediaFile] = []
            var seen = Set<UInt32>()
            var stack = ids.reversed().compactMap { cache.file($0) }
            while let file = stack.popLast() {
                guard seen.insert(file.id).inserted else { continue }
                if file.isFolder {
                    guard let path = cache.pathByFolderID[file.id] else { continue }
                    stack += (cache.folders[path] ?? []).reversed()
                } else {
                    result.append(file)
                }
            }
            return result
        }
    }
}

/// Where the catalog keeps one record: the folder's path and the name it is shown under (unique in it).
struct CatalogPlace {
    var folder: String
    var name: String
}

/// The catalog's cache: the tree as last read and changed, and how it stands.
private struct Cache {
    /// How many files (not folders) the folders hold.
    var fileCount: Int { folders.values.reduce(0) { total, list in total + list.reduce(0) { $0 + ($1.isFolder ? 0 : 1) } } }

    var storedState: MediaCatalog.State = .reset
    var folders: [String: [MediaFile]] = [:]
    var folderIDs: [String: (storage: UInt32, id: UInt32?)] = [:]
    var pathByFolderID: [UInt32: String] = [:]
    /// Where each object's record is: its folder and name (the one copy of a record is in `folders`; a
    /// second copy here took 49 MB for a card of 100,000 objects).
    var byID: [UInt32: CatalogPlace] = [:]
    var pendingAdded: [UInt32] = []
    var changeToken: Int?
    /// Top-level folder names when the camera has more than one store ("store_00010001"), else empty.
    var storePrefixes: [UInt32: String] = [:]
    /// Why the last reload left things out (a folder the device refused to list, objects it could not
    /// describe, more than the bounds allow): the catalog stays incomplete until the next reload.
    var gaps: [String] = []
    /// One line per object lost or repaired, not yet handed to `takeWarnings()`.
    var unreported: [String] = []
    /// Every warning ever queued: each is said once per session, not again at every reload.
    var warned = Set<String>()
    var someFolderFailed: Bool { !gaps.isEmpty }
    /// Set by a reload that read no file although the camera named objects: each was lost.
    var unreadableCard: UnreadableListing?
    var changeCount = 0

    /// The record of `id`, found by its place: a binary search of its folder by name (folders are kept
    /// sorted by their names' bytes), a scan of the folder should the order ever not hold.
    func file(_ id: UInt32) -> MediaFile? {
        guard let place = byID[id], let list = folders[place.folder] else { return nil }
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if CatalogNaming.bytesPrecede(list[middle].name, place.name) { low = middle + 1 } else { high = middle }
        }
        if low < list.count, list[low].id == id { return list[low] }
        return list.first { $0.id == id }
    }

    mutating func remove(_ id: UInt32) {
        guard let file = file(id) else { return }
        byID[id] = nil
        changeCount += 1
        folders[file.folder]?.removeAll { $0.id == id }
        if file.isFolder, let path = pathByFolderID.removeValue(forKey: id) {
            for key in folders.keys where key == path || key.hasPrefix(path + "/") {
                for f in folders[key] ?? [] { byID[f.id] = nil }
                folders[key] = nil
                folderIDs[key] = nil
            }
        }
    }
}
