import Foundation
import POSIX
import PTP

/// The virtual camera's memory card: a tree of objects with stable handles, served from a folder on disk
/// or held in memory (the demo card). Shared by every session of a responder; thread-safe.
/// Changes (a file appears in the folder, a delete, a capture) are sent as PTP events to subscribers.
public final class Card: @unchecked Sendable {
    public struct Storage: Sendable {
        public var id: UInt32
        public var description: String
        public var volumeLabel: String
        /// Reported capacity for in-memory cards; folder cards report their filesystem's.
        public var capacity: UInt64
    }

    /// The first (or only) store; captures and folder cards use it.
    public let storage: Storage
    /// More stores of an in-memory card, as on a camera with two card slots (`addStorage`).
    public var extraStorages: [Storage] { lock.withLock { storedExtraStorages } }
    private var storedExtraStorages: [Storage] = []
    /// Every store's id, the first one first.
    public var storageIDs: [UInt32] { [storage.id] + extraStorages.map(\.id) }
    public let readOnly: Bool
    /// What the card accepts from an initiator (SendObjectInfo/SendObject); nil: no uploads, the default.
    public let uploads: UploadPolicy?
    /// The served folder, or nil for an in-memory card.
    public let folder: String?
    let rootFD: Int32
    /// Serializes a scan of the folder with the card's own writes (an upload's last step), so a scan never
    /// sees a written file before the card has recorded it under the handle it promised.
    let scanLock = NSLock()

    /// Guards the tree below (not private: Card+Refresh.swift applies scans to it).
    let lock = NSLock()
    var objects: [UInt32: CardObject] = [:]
    var children: [UInt32: [UInt32]] = [0: []]
    var handleByPath: [String: UInt32] = [:]
    var pathByHandle: [UInt32: String] = [:]
    private var nextHandle: UInt32 = 1
    private var subscribers: [Int: @Sendable (PTPEvent) -> Void] = [:]
    private var nextSubscriber = 0
    private var watcher: Thread?
    private var watching = false
    /// When a session last asked something of the card (the watcher waits for a quiet moment).
    private var lastActivity: ContinuousClock.Instant?

    /// Says that a session is using the card now: the watcher's next scan waits until the card has been
    /// quiet for a whole interval, so that a scan of a big card (a stat per file) does not compete with
    /// the listings and downloads it serves. Events still come from the sessions' own quick refreshes.
    public func noteActivity() {
        let now = ContinuousClock.now
        lock.withLock { lastActivity = now }
    }
    /// Bytes used by a capture; set by whoever builds the card (the demo media's photo).
    var captureImage: [UInt8] {
        get { lock.withLock { storedCaptureImage } }
        set { lock.withLock { storedCaptureImage = newValue } }
    }
    private var storedCaptureImage: [UInt8] = []
    public var canCapture: Bool { !captureImage.isEmpty }

    /// Serves `path` as a card. Files are read when requested, so a card of any size opens at once.
    public init(folder path: String, readOnly: Bool = false, volumeLabel: String? = nil, uploads: UploadPolicy? = nil) throws {
        rootFD = try CardFileSystem.openRoot(path)
        folder = path
        self.readOnly = readOnly
        self.uploads = readOnly ? nil : uploads
        let label = volumeLabel ?? URL(fileURLWithPath: path).lastPathComponent
        storage = Storage(id: 0x0001_0001, description: "SD card", volumeLabel: label, capacity: 0)
        _ = refresh()
    }

    /// An empty in-memory card; `DemoCard` fills one.
    public init(inMemoryLabel label: String, capacity: UInt64 = 64 << 30, readOnly: Bool = false) {
        rootFD = -1
        folder = nil
        self.readOnly = readOnly
        uploads = nil
        storage = Storage(id: 0x0001_0001, description: "SD card", volumeLabel: label, capacity: capacity)
    }

    deinit {
        stopWatching()
        if rootFD >= 0 { CardFileSystem.closeFile(rootFD) }
    }

    // MARK: Queries

    public func object(_ handle: UInt32) -> CardObject? { lock.withLock { objects[handle] } }

    /// The objects of `handles`, in order (nil for one not on the card), looked up under one lock.
    public func objects(_ handles: [UInt32]) -> [CardObject?] { lock.withLock { handles.map { objects[$0] } } }

    public var objectCount: Int { lock.withLock { objects.count } }

    /// The path of an object from the card's root, e.g. "DCIM/100MEDIA/DJI_0001.JPG".
    public func path(of handle: UInt32) -> String? { lock.withLock { pathByHandle[handle] } }

    public func handle(forPath path: String) -> UInt32? { lock.withLock { handleByPath[path] } }

    /// Objects directly in `parent` (0: the root), in name order.
    public func children(of parent: UInt32) -> [UInt32]? { lock.withLock { children[parent] } }

    /// Every object beneath `parent` (0: the whole card), depth first.
    public func descendants(of parent: UInt32) -> [UInt32] {
        lock.withLock {
            var result: [UInt32] = []
            var stack = Array((children[parent] ?? []).reversed())
            while let h = stack.popLast() {
                result.append(h)
                if let kids = children[h] { stack.append(contentsOf: kids.reversed()) }
            }
            return result
        }
    }

    /// Adds a second (third, …) store to an in-memory card; returns its id. Fill it with
    /// `add(name:in:content:modified:storage:)`.
    @discardableResult
    public func addStorage(description: String, volumeLabel: String, capacity: UInt64 = 64 << 30) -> UInt32 {
        lock.withLock {
            let id = UInt32(storedExtraStorages.count + 2) << 16 | 1
            storedExtraStorages.append(Storage(id: id, description: description, volumeLabel: volumeLabel, capacity: capacity))
            return id
        }
    }

    /// The key of a path in `handleByPath`: the first store's paths as they are, another's prefixed by its id.
    private func key(_ path: String, storage id: UInt32) -> String {
        id == storage.id ? path : String(id, radix: 16) + ":" + path
    }

    /// The description of store `id`, nil when the card has no such store.
    public func storageInfo(_ id: UInt32) -> StorageInfo? {
        if id == storage.id { return storageInfo() }
        guard let extra = extraStorages.first(where: { $0.id == id }) else { return nil }
        var info = StorageInfo()
        info.storageType = StorageInfo.StorageType.removableRAM.rawValue
        info.filesystemType = 3
        info.accessCapability = (readOnly ? StorageInfo.AccessCapability.readOnly : .readWrite).rawValue
        let used = lock.withLock { objects.values.filter { $0.storageID == id }.reduce(UInt64(0)) { $0 + $1.size } }
        info.maxCapacity = extra.capacity
        info.freeSpaceInBytes = extra.capacity > used ? extra.capacity - used : 0
        info.freeSpaceInImages = UInt32(min(info.freeSpaceInBytes / (8 << 20), 0xFFFF_FFFE))
        info.storageDescription = extra.description
        info.volumeLabel = extra.volumeLabel
        return info
    }

    public func storageInfo() -> StorageInfo {
        var info = StorageInfo()
        info.storageType = StorageInfo.StorageType.removableRAM.rawValue
        info.filesystemType = 3
        info.accessCapability = (readOnly ? StorageInfo.AccessCapability.readOnly : .readWrite).rawValue
        if rootFD >= 0 {
            let (total, free) = CardFileSystem.capacity(rootFD)
            info.maxCapacity = total
            info.freeSpaceInBytes = free
        } else {
            let used = lock.withLock { objects.values.filter { $0.storageID == storage.id }.reduce(UInt64(0)) { $0 + $1.size } }
            info.maxCapacity = storage.capacity
            info.freeSpaceInBytes = storage.capacity > used ? storage.capacity - used : 0
        }
        info.freeSpaceInImages = UInt32(min(info.freeSpaceInBytes / (8 << 20), 0xFFFF_FFFE))
        info.storageDescription = storage.description
        info.volumeLabel = storage.volumeLabel
        return info
    }

    // MARK: Reading

    /// Opens an object's bytes for random access.
    public func openContent(_ handle: UInt32) throws -> ContentReader {
        guard let object = object(handle) else { throw CardError.noSuchObject(handle) }
        switch object.content {
        case .folder:
            throw CardError.unsupported("\(object.name) is a folder")
        case .bytes(let bytes):
            return MemoryContentReader(bytes)
        case .generated(let length):
            return GeneratedContentReader(length: length)
        case .resource(let path):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw CardError.folder(CardFileSystem.errorText(path)) }
            return FileContentReader(fd: fd)
        case .file(let relativePath):
            let fd = try CardFileSystem.openBeneath(rootFD, relativePath, flags: O_RDONLY)
            return FileContentReader(fd: fd)
        }
    }

    /// A thumbnail file the camera gives for an object instead of computing one (the demo videos').
    public func setThumbnail(_ handle: UInt32, path: String) { lock.withLock { thumbnailFiles[handle] = path } }
    public func thumbnailFile(_ handle: UInt32) -> String? { lock.withLock { thumbnailFiles[handle] } }
    private var thumbnailFiles: [UInt32: String] = [:]

    // MARK: Changes

    /// Adds an in-memory or generated object under the folder path `folderPath` (created as needed).
    @discardableResult
    public func add(
        name: String, in folderPath: String, content: ObjectContent, modified: Date = Date(), storage id: UInt32? = nil
    ) -> UInt32 {
        let store = id ?? storage.id
        let (handle, added) = lock.withLock { () -> (UInt32, [UInt32]) in
            var added: [UInt32] = []
            let parent = ensureFolderLocked(folderPath, modified: modified, added: &added, storage: store)
            let size: UInt64
            switch content {
            case .bytes(let b): size = UInt64(b.count)
            case .generated(let length): size = length
            case .resource(let path):
                var info = stat()
                size = stat(path, &info) == 0 ? UInt64(info.st_size) : 0
            default: size = 0
            }
            let path = key(folderPath.isEmpty ? name : folderPath + "/" + name, storage: store)
            let handle = insertLocked(
                path: path, name: name, parent: parent, content: content, size: size, modified: modified, storage: store)
            added.append(handle)
            return (handle, added)
        }
        for h in added { publish(PTPEvent(.objectAdded, parameters: [h])) }
        return handle
    }

    /// Deletes an object (a folder with everything in it). Returns the handles removed.
    @discardableResult
    public func delete(_ handle: UInt32) throws -> [UInt32] {
        guard !readOnly else { throw CardError.readOnly }
        guard let object = object(handle) else { throw CardError.noSuchObject(handle) }
        let doomed = (object.isFolder ? descendants(of: handle).reversed() : []) + [handle]
        var removed: [UInt32] = []
        var failure: Error?
        for h in doomed {
            guard let o = self.object(h), let path = path(of: h) else { continue }
            if rootFD >= 0, folder != nil, case .file = o.content {
                do { try CardFileSystem.remove(rootFD, path, isDirectory: false) } catch { failure = error; continue }
            } else if rootFD >= 0, o.isFolder, pathIsOnDisk(h) {
                do { try CardFileSystem.remove(rootFD, path, isDirectory: true) } catch { failure = error; continue }
            }
            lock.withLock { removeLocked(h) }
            removed.append(h)
        }
        for h in removed { publish(PTPEvent(.objectRemoved, parameters: [h])) }
        if let failure { throw failure }
        return removed
    }

    private func pathIsOnDisk(_ handle: UInt32) -> Bool {
        lock.withLock { objects[handle]?.isFolder == true && diskFolders.contains(handle) }
    }
    var diskFolders: Set<UInt32> = []

    /// Takes a picture: a new JPEG in the last DCIM folder (created if missing), named after the highest
    /// number there; with `newFolder`, in a new DCIM folder numbered one past the last, as some cameras do.
    /// Sends ObjectAdded; the responder sends CaptureComplete.
    public func capture(newFolder: Bool = false) throws -> UInt32 {
        guard !readOnly else { throw CardError.readOnly }
        guard !captureImage.isEmpty else { throw CardError.unsupported("this card has no image to capture") }
        var (folderPath, name) = nextCaptureName()
        if newFolder { folderPath = nextCaptureFolder() }
        if rootFD >= 0 {
            try CardFileSystem.makeDirectory(rootFD, "DCIM")
            try CardFileSystem.makeDirectory(rootFD, folderPath)
            try CardFileSystem.create(rootFD, folderPath + "/" + name, contents: captureImage)
            // The card wrote it whole itself: a watched card hands it over at once (its new folder has no
            // inotify watch yet, which would otherwise hold the file back until it settles).
            arrivals.withLock { _ = $0.whole.insert(folderPath + "/" + name) }
            _ = refresh()
            guard let handle = handle(forPath: folderPath + "/" + name) else {
                throw CardError.folder("captured file did not appear")
            }
            return handle
        }
        return add(name: name, in: folderPath, content: .bytes(captureImage))
    }

    /// "DCIM/NNNMSHOT", numbered one past the highest numbered DCIM folder.
    func nextCaptureFolder() -> String {
        lock.withLock {
            let numbers = handleByPath.keys.compactMap { path -> Int? in
                guard path.hasPrefix("DCIM/"), path.split(separator: "/").count == 2 else { return nil }
                return Int(path.dropFirst(5).prefix(3))
            }
            var number = (numbers.max() ?? 99) + 1
            while handleByPath["DCIM/" + String(format: "%03d", number) + "MSHOT"] != nil { number += 1 }
            return "DCIM/" + String(format: "%03d", number) + "MSHOT"
        }
    }

    func nextCaptureName() -> (folder: String, name: String) {
        lock.withLock {
            let dcimFolders = handleByPath.keys.filter {
                $0.hasPrefix("DCIM/") && $0.split(separator: "/").count == 2
                    && objects[handleByPath[$0]!]?.isFolder == true
            }.sorted()
            let folder = dcimFolders.last ?? "DCIM/100MEDIA"
            var highest = 0
            var prefix = "DJI_"
            for h in children[handleByPath[folder] ?? UInt32.max] ?? [] {
                guard let name = objects[h]?.name, let underscore = name.firstIndex(of: "_") else { continue }
                let digits = name[name.index(after: underscore)...].prefix { $0.isNumber }
                if let n = Int(digits), n > highest {
                    highest = n
                    prefix = String(name[...underscore])
                }
            }
            var number = highest + 1
            var name = prefix + String(format: "%04d", number) + ".JPG"
            while handleByPath[folder + "/" + name] != nil {
                number += 1
                name = prefix + String(format: "%04d", number) + ".JPG"
            }
            return (folder, name)
        }
    }

    // MARK: Refreshing from the folder (the methods are in Card+Refresh.swift)

    /// Callers waiting for `scanLock` (under `lock`): a background scan seeing one gives up.
    var refreshesWaiting = 0
    /// Each folder's modification time at the last scan (under `lock`).
    var directoryStamps: [String: Date] = [:]
    /// The objects found on disk (not the card's own writes in progress; under `lock`).
    var diskHandles: Set<UInt32> = []
    /// Called by `refresh` between its scan and applying it, so a test can change the folder in between.
    var afterScanForTesting: (@Sendable () -> Void)?
    /// Called when a caller starts waiting for `scanLock`, so a test knows a background scan must give up.
    var waitingForScanForTesting: (@Sendable () -> Void)?
    /// What the watcher knows of files arriving in the folder (see `CardArrivals`).
    let arrivals = Locked(CardArrivals())
    /// Called with each file a scan held back (not whole yet), so a test knows the scan saw it.
    var heldBackForTesting: (@Sendable (String) -> Void)?

    // MARK: Events

    /// Calls `handler` with every change event until `unsubscribe`. Starts watching the folder while
    /// anyone is subscribed.
    public func subscribe(_ handler: @escaping @Sendable (PTPEvent) -> Void) -> Int {
        let id = lock.withLock {
            let id = nextSubscriber
            nextSubscriber += 1
            subscribers[id] = handler
            return id
        }
        return id
    }

    public func unsubscribe(_ id: Int) {
        lock.withLock { _ = subscribers.removeValue(forKey: id) }
    }

    /// Sends an event to every subscriber (used by the responder for CaptureComplete).
    public func publish(_ event: PTPEvent) {
        let handlers = lock.withLock { Array(subscribers.values) }
        for h in handlers { h(event) }
    }

    /// Re-reads the folder every `interval` seconds in the background, so files copied onto the
    /// served folder are announced with ObjectAdded. Stopped by `stopWatching()` or deinit.
    /// A scan that takes long (a card of 100,000 files) stretches the pause to ten times its length, so the
    /// watcher never takes more than about a tenth of a core from the sessions it serves; while sessions
    /// are busy it waits (see `noteActivity`).
    ///
    /// While watched, a file is handed over only when whole (see `CardArrivals`): inotify says when a file
    /// copied in is closed by its writer, or renamed in, and the watcher then refreshes at once; a file it
    /// says nothing of is handed over once unchanged for `settle` seconds. `inotify: false` is for tests of
    /// the folders inotify cannot follow (a network share written by another machine).
    public func startWatching(interval: TimeInterval = 1) {
        startWatching(interval: interval, settle: 2, inotify: true)
    }

    func startWatching(interval: TimeInterval, settle: Double, inotify: Bool) {
        guard rootFD >= 0 else { return }
        let start = lock.withLock { () -> Bool in
            if watching { return false }
            watching = true
            return true
        }
        guard start else { return }
        startFileEvents(settle: settle, inotify: inotify)
        // The thread holds the inotify descriptor's owner, so it stays open while it is polled.
        let events = arrivals.withLock { $0.events }
        let thread = Thread { [weak self] in
            // Its scans (a stat per file) run only when the sessions leave a core idle.
            ThreadPriority.makeCurrentThreadBackground()
            var pause = interval
            var nextScan = Deadline.after(pause)
            while true {
                if let events {
                    _ = try? pollDescriptors([events.descriptor], events: .readable, deadline: nextScan)
                } else {
                    POSIX.pause(until: nextScan)
                }
                guard let self, self.lock.withLock({ self.watching }) else { return }
                // A file closed by its writer or renamed in: hand it over now (a quick refresh, which
                // re-reads only the folders that changed or hold a file not yet handed over).
                if self.absorbFileEvents() { self.backgroundRefresh(full: false) }
                guard nextScan.hasPassed else { continue }
                let began = ContinuousClock.now
                if let last = self.lock.withLock({ self.lastActivity }), last.duration(to: began) < .seconds(interval) {
                    nextScan = .after(interval)
                    continue
                }
                guard self.backgroundRefresh() != nil else {
                    // A session wanted the card: try again once it has been quiet for an interval.
                    nextScan = .after(interval)
                    continue
                }
                let took = began.duration(to: .now)
                pause = max(interval, 10 * (Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18))
                nextScan = .after(pause)
            }
        }
        thread.name = "card-watcher"
        thread.start()
        lock.withLock { watcher = thread }
    }

    public func stopWatching() {
        lock.withLock {
            watching = false
            watcher = nil
        }
        stopFileEvents()
    }

    // MARK: The card's own writes

    /// A handle for an object about to be written (SendObjectInfo answers with it before the bytes come).
    func reserveHandle() -> UInt32 {
        lock.withLock {
            defer { nextHandle += 1 }
            return nextHandle
        }
    }

    /// Records a file or folder the card has just written at `path` under the `handle` it reserved, and
    /// announces it with ObjectAdded. Returns the handle the object has (a scan may have found it first).
    /// Call with `scanLock` held.
    @discardableResult
    func recordWritten(path: String, handle: UInt32, isFolder: Bool, size: UInt64, modified: Date) -> UInt32 {
        let parentPath = path.split(separator: "/").dropLast().joined(separator: "/")
        let name = String(path.split(separator: "/").last ?? "")
        let recorded = lock.withLock { () -> UInt32? in
            if let existing = handleByPath[path] { return existing }
            let parent = parentPath.isEmpty ? 0 : (handleByPath[parentPath] ?? 0)
            _ = insertLocked(
                path: path, name: name, parent: parent,
                content: isFolder ? .folder : .file(relativePath: path), size: size, modified: modified,
                handle: handle)
            diskHandles.insert(handle)
            if isFolder { diskFolders.insert(handle) }
            return nil
        }
        if let recorded { return recorded }
        publish(PTPEvent(.objectAdded, parameters: [handle]))
        return handle
    }

    // MARK: Tree maintenance (lock held)

    /// Adds an object. With `keepOrder` its folder's children stay sorted by name (binary search); a scan
    /// passes false, appends, and sorts each folder once at the end (inserting 50,000 names one by one in
    /// order was quadratic).
    func insertLocked(
        path: String, name: String, parent: UInt32, content: ObjectContent, size: UInt64, modified: Date,
        keepOrder: Bool = true, storage id: UInt32? = nil, handle reserved: UInt32? = nil
    ) -> UInt32 {
        let handle: UInt32
        if let reserved {
            handle = reserved
        } else {
            handle = nextHandle
            nextHandle += 1
        }
        let format: ObjectFormatCode
        if case .folder = content { format = .association } else { format = ObjectFormatCode(fileName: name) }
        objects[handle] = CardObject(
            handle: handle, storageID: id ?? storage.id, parent: parent, name: name, content: content,
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
    func sortChildrenLocked(_ parents: Set<UInt32>) {
        for parent in parents {
            children[parent]?.sort { (objects[$0]?.name ?? "") < (objects[$1]?.name ?? "") }
        }
    }

    func ensureFolderLocked(
        _ folderPath: String, modified: Date, added: inout [UInt32], storage id: UInt32? = nil
    ) -> UInt32 {
        let store = id ?? storage.id
        var parent: UInt32 = 0
        var path = ""
        for component in folderPath.split(separator: "/") {
            path = path.isEmpty ? String(component) : path + "/" + component
            if let existing = handleByPath[key(path, storage: store)] {
                parent = existing
            } else {
                parent = insertLocked(
                    path: key(path, storage: store), name: String(component), parent: parent, content: .folder, size: 0,
                    modified: modified, storage: store)
                added.append(parent)
            }
        }
        return parent
    }

    func removeLocked(_ handle: UInt32) {
        guard let object = objects.removeValue(forKey: handle) else { return }
        for child in children[handle] ?? [] { removeLocked(child) }
        children[handle] = nil
        children[object.parent]?.removeAll { $0 == handle }
        if let path = pathByHandle.removeValue(forKey: handle) { handleByPath[path] = nil }
        diskHandles.remove(handle)
        diskFolders.remove(handle)
        thumbnailFiles[handle] = nil
    }
}
