import Foundation
import PTP

/// What a `Card` shares between the threads that use it: the tree of objects, its subscribers, its watcher
/// and the bookkeeping of its scans. It lives in the card's `Locked`; the methods below run with that lock
/// held, so none of them calls out (no event is sent, no caller's closure runs, nothing is read from disk).
struct CardState {
    /// The first store's id: objects added without a store go there, and its paths are not prefixed.
    let firstStorageID: UInt32

    var objects: [UInt32: CardObject] = [:]
    var children: [UInt32: [UInt32]] = [0: []]
    var handleByPath: [String: UInt32] = [:]
    var pathByHandle: [UInt32: String] = [:]
    var nextHandle: UInt32 = 1
    /// More stores of an in-memory card, as on a camera with two card slots (`Card.addStorage`).
    var extraStorages: [Card.Storage] = []
    /// Thumbnail files the camera gives instead of computing one (the demo videos').
    var thumbnailFiles: [UInt32: String] = [:]
    /// Bytes used by a capture (the demo media's photo); empty: the card cannot capture.
    var captureImage: [UInt8] = []

    var subscribers: [Int: @Sendable (PTPEvent) -> Void] = [:]
    var nextSubscriber = 0
    /// Whether the watcher thread should go on (it ends at its next look once this is false).
    var watching = false
    /// When a session last asked something of the card (the watcher waits for a quiet moment).
    var lastActivity: ContinuousClock.Instant?

    /// Callers waiting for the scan turn: a background scan seeing one gives up.
    var refreshesWaiting = 0
    /// Each folder's modification time at the last scan.
    var directoryStamps: [String: Date] = [:]
    /// The objects found on disk (not the card's own writes in progress).
    var diskHandles: Set<UInt32> = []
    /// The folders found on disk or made by the card on disk.
    var diskFolders: Set<UInt32> = []

    /// What watches the card's scans (`Card.onScanListed` and its siblings).
    var scanListed: (@Sendable () -> Void)?
    var scanTurnWanted: (@Sendable () -> Void)?
    var heldBack: (@Sendable (String) -> Void)?

    init(firstStorageID: UInt32) {
        self.firstStorageID = firstStorageID
    }

    // MARK: Reading the tree

    /// Every object beneath `parent` (0: the whole card), depth first.
    func descendants(of parent: UInt32) -> [UInt32] {
        var result: [UInt32] = []
        var stack = Array((children[parent] ?? []).reversed())
        while let h = stack.popLast() {
            result.append(h)
            if let kids = children[h] { stack.append(contentsOf: kids.reversed()) }
        }
        return result
    }

    /// The bytes held by the objects of store `id`.
    func bytesUsed(storage id: UInt32) -> UInt64 {
        objects.values.filter { $0.storageID == id }.reduce(UInt64(0)) { $0 + $1.size }
    }

    /// The key of a path in `handleByPath`: the first store's paths as they are, another's prefixed by its id.
    func key(_ path: String, storage id: UInt32) -> String {
        id == firstStorageID ? path : String(id, radix: 16) + ":" + path
    }

    /// "DCIM/NNN" + `suffix` ("MSHOT" by default), numbered one past the highest numbered DCIM folder.
    func nextCaptureFolder(suffix: String = "MSHOT") -> String {
        let numbers = handleByPath.keys.compactMap { path -> Int? in
            guard path.hasPrefix("DCIM/"), path.split(separator: "/").count == 2 else { return nil }
            return Int(path.dropFirst(5).prefix(3))
        }
        var number = (numbers.max() ?? 99) + 1
        while handleByPath["DCIM/" + String(format: "%03d", number) + suffix] != nil { number += 1 }
        return "DCIM/" + String(format: "%03d", number) + suffix
    }

    /// The next picture's folder and name as `naming` says: the camera's counter one past the highest number
    /// of its own names on the card, in the last DCIM folder (`DCIM/100` + the camera's suffix on a card
    /// without one); past 9999, from 0001 in a new folder one past the last.
    func nextCaptureName(_ naming: ShotNaming) -> (folder: String, name: String) {
        let dcimFolders = handleByPath.keys.filter {
            $0.hasPrefix("DCIM/") && $0.split(separator: "/").count == 2
                && objects[handleByPath[$0]!]?.isFolder == true
        }.sorted()
        var folder = dcimFolders.last ?? "DCIM/100" + naming.folderSuffix
        var number = highestNumber(of: naming) + 1
        if number > 9999 {
            folder = nextCaptureFolder(suffix: naming.folderSuffix)
            number = 1
        }
        while handleByPath[folder + "/" + naming.name(number)] != nil { number += 1 }
        return (folder, naming.name(number))
    }

    /// The highest counter among the card's files named in `naming`'s pattern; 0 for none.
    func highestNumber(of naming: ShotNaming) -> Int {
        objects.values.reduce(0) { highest, object in
            object.isFolder ? highest : max(highest, naming.number(of: object.name) ?? 0)
        }
    }

    // MARK: What the last scan saw

    /// What a folder held at the last scan, as directory entries; nil when unknown.
    func entries(inFolder path: String) -> [CardFileSystem.Entry]? {
        scannedChildren(ofFolder: path)?.map {
            CardFileSystem.Entry(name: $0.name, isDirectory: $0.isFolder, size: $0.size, modified: $0.modified)
        }
    }

    /// The names of the folders a folder held at the last scan; nil when unknown.
    func subfolderNames(inFolder path: String) -> [String]? {
        // From the few folders rather than the folder's files: a quick refresh of a folder of 100,000
        // files then costs nothing per file.
        guard let handle = folderHandle(path), handle == 0 || diskFolders.contains(handle) else { return nil }
        return diskFolders.compactMap { objects[$0].flatMap { $0.parent == handle && $0.isFolder ? $0 : nil } }
            .sorted { $0.name < $1.name }.map(\.name)
    }

    /// The objects found on disk in a folder at the last scan (not the card's own writes in progress); nil
    /// when the folder is unknown.
    func scannedChildren(ofFolder path: String) -> [CardObject]? {
        guard let handle = folderHandle(path) else { return nil }
        return (children[handle] ?? []).compactMap { h in diskHandles.contains(h) ? objects[h] : nil }
    }

    /// The handle of the folder at `path` (0 for the top of the card); nil when unknown.
    func folderHandle(_ path: String) -> UInt32? {
        path.isEmpty ? 0 : handleByPath[path]
    }

    // MARK: Changing the tree

    /// A new handle, never given before.
    mutating func takeHandle() -> UInt32 {
        defer { nextHandle += 1 }
        return nextHandle
    }

    /// Adds an object. With `keepOrder` its folder's children stay sorted by name (binary search); a scan
    /// passes false, appends, and sorts each folder once at the end (inserting 50,000 names one by one in
    /// order was quadratic).
    mutating func insert(
        path: String, name: String, parent: UInt32, content: ObjectContent, size: UInt64, modified: Date,
        keepOrder: Bool = true, storage id: UInt32? = nil, handle reserved: UInt32? = nil
    ) -> UInt32 {
        let handle = reserved ?? takeHandle()
        let format: ObjectFormatCode
        if case .folder = content { format = .association } else { format = ObjectFormatCode(fileName: name) }
        objects[handle] = CardObject(
            handle: handle, storageID: id ?? firstStorageID, parent: parent, name: name, content: content,
            size: size, modified: modified, format: format)
        handleByPath[path] = handle
        pathByHandle[handle] = path
        if keepOrder {
            let siblings = children[parent] ?? []
            var low = 0
            var high = siblings.count
            while low < high {
                let mid = (low + high) / 2
                if (objects[siblings[mid]]?.name ?? "") <= name { low = mid + 1 } else { high = mid }
            }
            children[parent, default: []].insert(handle, at: low)
        } else {
            children[parent, default: []].append(handle)
        }
        if case .folder = content, children[handle] == nil { children[handle] = [] }
        return handle
    }

    /// Sorts the children of `parents` by name (after a scan appended to them).
    mutating func sortChildren(_ parents: Set<UInt32>) {
        for parent in parents {
            children[parent]?.sort { (objects[$0]?.name ?? "") < (objects[$1]?.name ?? "") }
        }
    }

    /// The handle of the folder at `folderPath` in store `id`, made (with the folders above it) as needed;
    /// the folders made are appended to `added`.
    mutating func ensureFolder(
        _ folderPath: String, modified: Date, added: inout [UInt32], storage id: UInt32? = nil
    ) -> UInt32 {
        let store = id ?? firstStorageID
        var parent: UInt32 = 0
        var path = ""
        for component in folderPath.split(separator: "/") {
            path = path.isEmpty ? String(component) : path + "/" + component
            if let existing = handleByPath[key(path, storage: store)] {
                parent = existing
            } else {
                parent = insert(
                    path: key(path, storage: store), name: String(component), parent: parent, content: .folder, size: 0,
                    modified: modified, storage: store)
                added.append(parent)
            }
        }
        return parent
    }

    /// Removes an object and everything beneath it.
    mutating func remove(_ handle: UInt32) {
        guard let object = objects.removeValue(forKey: handle) else { return }
        for child in children[handle] ?? [] { remove(child) }
        children[handle] = nil
        children[object.parent]?.removeAll { $0 == handle }
        if let path = pathByHandle.removeValue(forKey: handle) { handleByPath[path] = nil }
        diskHandles.remove(handle)
        diskFolders.remove(handle)
        thumbnailFiles[handle] = nil
    }
}
