import Foundation
import POSIX
import PTP

/// The virtual camera's memory card: a tree of objects with stable handles, served from a folder on disk
/// or held in memory (the demo card). Shared by every session of a responder; thread-safe.
/// Changes (a file appears in the folder, a delete, a capture) are sent as PTP events to subscribers.
public final class Card: Sendable {
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
    public var extraStorages: [Storage] { state.withLock { $0.extraStorages } }
    /// Every store's id, the first one first.
    public var storageIDs: [UInt32] { [storage.id] + extraStorages.map(\.id) }
    public let readOnly: Bool
    /// What the card accepts from an initiator (SendObjectInfo/SendObject); nil: no uploads, the default.
    public let uploads: UploadPolicy?
    /// The served folder, or nil for an in-memory card.
    public let folder: String?
    let rootFD: Int32
    /// One scan of the folder at a time, and the card's own writes (an upload's last step) between them,
    /// so a scan never sees a written file before the card has recorded it under the handle it promised
    /// (`withScanTurn`). Lock order: `scanTurn`, then `state`, then `arrivals`; the test hooks of a scan
    /// run holding `scanTurn` (they must not refresh on their own thread).
    let scanTurn = Locked.turn()
    /// The tree and everything else the card's threads share (not private: Card+Refresh.swift applies
    /// scans to it). No caller's closure runs with it held: events are sent after it is released.
    let state: Locked<CardState>
    /// What the watcher knows of files arriving in the folder (see `CardArrivals`); taken inside `state`
    /// when a scan is applied, never the other way round.
    let arrivals = Locked(CardArrivals())

    /// Says that a session is using the card now: the watcher's next scan waits until the card has been
    /// quiet for a whole interval, so that a scan of a big card (a stat per file) does not compete with
    /// the listings and downloads it serves. Events still come from the sessions' own quick refreshes.
    public func noteActivity() {
        let now = ContinuousClock.now
        state.withLock { $0.lastActivity = now }
    }
    /// Bytes used by a capture; set by whoever builds the card (the demo media's photo).
    var captureImage: [UInt8] {
        get { state.withLock { $0.captureImage } }
        set { state.withLock { $0.captureImage = newValue } }
    }
    public var canCapture: Bool { state.withLock { !$0.captureImage.isEmpty } }

    /// Serves `path` as a card. Files are read when requested, so a card of any size opens at once. The
    /// store's `description` is a camera's ("SD card") unless told (a card folder says "folder").
    public init(
        folder path: String, readOnly: Bool = false, volumeLabel: String? = nil, description: String = "SD card",
        uploads: UploadPolicy? = nil
    ) throws {
        rootFD = try CardFileSystem.openRoot(path)
        folder = path
        self.readOnly = readOnly
        self.uploads = readOnly ? nil : uploads
        let label = volumeLabel ?? URL(fileURLWithPath: path).lastPathComponent
        storage = Storage(id: 0x0001_0001, description: description, volumeLabel: label, capacity: 0)
        state = Locked(CardState(firstStorageID: storage.id))
        _ = refresh()
    }

    /// An empty in-memory card; `DemoCard` fills one.
    public init(inMemoryLabel label: String, capacity: UInt64 = 64 << 30, readOnly: Bool = false) {
        rootFD = -1
        folder = nil
        self.readOnly = readOnly
        uploads = nil
        storage = Storage(id: 0x0001_0001, description: "SD card", volumeLabel: label, capacity: capacity)
        state = Locked(CardState(firstStorageID: storage.id))
    }

    deinit {
        stopWatching()
        if rootFD >= 0 { CardFileSystem.closeFile(rootFD) }
    }

    // MARK: Queries

    public func object(_ handle: UInt32) -> CardObject? { state.withLock { $0.objects[handle] } }

    /// The objects of `handles`, in order (nil for one not on the card), looked up under one lock.
    public func objects(_ handles: [UInt32]) -> [CardObject?] {
        state.withLock { state in handles.map { state.objects[$0] } }
    }

    public var objectCount: Int { state.withLock { $0.objects.count } }

    /// The path of an object from the card's root, e.g. "DCIM/100MEDIA/DJI_0001.JPG".
    public func path(of handle: UInt32) -> String? { state.withLock { $0.pathByHandle[handle] } }

    public func handle(forPath path: String) -> UInt32? { state.withLock { $0.handleByPath[path] } }

    /// Objects directly in `parent` (0: the root), in name order.
    public func children(of parent: UInt32) -> [UInt32]? { state.withLock { $0.children[parent] } }

    /// Every object beneath `parent` (0: the whole card), depth first.
    public func descendants(of parent: UInt32) -> [UInt32] { state.withLock { $0.descendants(of: parent) } }

    /// Adds a second (third, …) store to an in-memory card; returns its id. Fill it with
    /// `add(name:in:content:modified:storage:)`.
    @discardableResult
    public func addStorage(description: String, volumeLabel: String, capacity: UInt64 = 64 << 30) -> UInt32 {
        state.withLock {
            let id = UInt32($0.extraStorages.count + 2) << 16 | 1
            $0.extraStorages.append(Storage(id: id, description: description, volumeLabel: volumeLabel, capacity: capacity))
            return id
        }
    }

    /// The description of store `id`, nil when the card has no such store.
    public func storageInfo(_ id: UInt32) -> StorageInfo? {
        if id == storage.id { return storageInfo() }
        guard let extra = extraStorages.first(where: { $0.id == id }) else { return nil }
        var info = StorageInfo()
        info.storageType = StorageInfo.StorageType.removableRAM.rawValue
        info.filesystemType = 3
        info.accessCapability = (readOnly ? StorageInfo.AccessCapability.readOnly : .readWrite).rawValue
        let used = state.withLock { $0.bytesUsed(storage: id) }
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
            let id = storage.id
            let used = state.withLock { $0.bytesUsed(storage: id) }
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
    public func setThumbnail(_ handle: UInt32, path: String) { state.withLock { $0.thumbnailFiles[handle] = path } }
    public func thumbnailFile(_ handle: UInt32) -> String? { state.withLock { $0.thumbnailFiles[handle] } }

    // MARK: Changes

    /// Adds an in-memory or generated object under the folder path `folderPath` (created as needed).
    @discardableResult
    public func add(
        name: String, in folderPath: String, content: ObjectContent, modified: Date = Date(), storage id: UInt32? = nil
    ) -> UInt32 {
        let store = id ?? storage.id
        let size: UInt64
        switch content {
        case .bytes(let b): size = UInt64(b.count)
        case .generated(let length): size = length
        case .resource(let path):
            var info = stat()
            size = stat(path, &info) == 0 ? UInt64(info.st_size) : 0
        default: size = 0
        }
        let (handle, added) = state.withLock { state -> (UInt32, [UInt32]) in
            var added: [UInt32] = []
            let parent = state.ensureFolder(folderPath, modified: modified, added: &added, storage: store)
            let path = state.key(folderPath.isEmpty ? name : folderPath + "/" + name, storage: store)
            let handle = state.insert(
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
            state.withLock { $0.remove(h) }
            removed.append(h)
        }
        for h in removed { publish(PTPEvent(.objectRemoved, parameters: [h])) }
        if let failure { throw failure }
        return removed
    }

    private func pathIsOnDisk(_ handle: UInt32) -> Bool {
        state.withLock { $0.objects[handle]?.isFolder == true && $0.diskFolders.contains(handle) }
    }

    /// Takes a picture: a new JPEG named as the camera names its shots (`naming`: its prefix and counter,
    /// one past the highest number of its own names on the card), in the last DCIM folder (created if
    /// missing); with `newFolder`, in a new DCIM folder numbered one past the last, as some cameras do.
    /// Sends ObjectAdded; the responder sends CaptureComplete.
    public func capture(newFolder: Bool = false, naming: ShotNaming = .generic) throws -> UInt32 {
        guard !readOnly else { throw CardError.readOnly }
        let image = captureImage
        guard !image.isEmpty else { throw CardError.unsupported("this card has no image to capture") }
        var (folderPath, name) = state.withLock { $0.nextCaptureName(naming) }
        if newFolder { folderPath = state.withLock { $0.nextCaptureFolder() } }
        if rootFD >= 0 {
            try CardFileSystem.makeDirectory(rootFD, "DCIM")
            try CardFileSystem.makeDirectory(rootFD, folderPath)
            try CardFileSystem.create(rootFD, folderPath + "/" + name, contents: image)
            // The card wrote it whole itself: a watched card hands it over at once (its new folder has no
            // inotify watch yet, which would otherwise hold the file back until it settles).
            arrivals.withLock { _ = $0.whole.insert(folderPath + "/" + name) }
            _ = refresh()
            guard let handle = handle(forPath: folderPath + "/" + name) else {
                throw CardError.folder("captured file did not appear")
            }
            return handle
        }
        return add(name: name, in: folderPath, content: .bytes(image))
    }

    /// The highest counter among the card's files named in `naming`'s pattern (0 for none): where a camera
    /// that keeps a shot off the card (Nikon's SDRAM) counts on from.
    public func highestNumber(of naming: ShotNaming) -> Int {
        state.withLock { $0.highestNumber(of: naming) }
    }

    // MARK: Events

    /// Calls `handler` with every change event until `unsubscribe`. Starts watching the folder while
    /// anyone is subscribed.
    public func subscribe(_ handler: @escaping @Sendable (PTPEvent) -> Void) -> Int {
        state.withLock {
            let id = $0.nextSubscriber
            $0.nextSubscriber += 1
            $0.subscribers[id] = handler
            return id
        }
    }

    public func unsubscribe(_ id: Int) {
        state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
    }

    /// Sends an event to every subscriber (used by the responder for CaptureComplete), with no lock of
    /// the card held: a subscriber may ask the card anything in return.
    public func publish(_ event: PTPEvent) {
        let handlers = state.withLock { Array($0.subscribers.values) }
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
        let start = state.withLock { state -> Bool in
            if state.watching { return false }
            state.watching = true
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
                guard let self, self.state.withLock({ $0.watching }) else { return }
                // A file closed by its writer or renamed in: hand it over now (a quick refresh, which
                // re-reads only the folders that changed or hold a file not yet handed over).
                if self.absorbFileEvents() { self.backgroundRefresh(full: false) }
                guard nextScan.hasPassed else { continue }
                let began = ContinuousClock.now
                if let last = self.state.withLock({ $0.lastActivity }), last.duration(to: began) < .seconds(interval) {
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
    }

    public func stopWatching() {
        state.withLock { $0.watching = false }
        stopFileEvents()
    }

    // MARK: The card's own writes

    /// A handle for an object about to be written (SendObjectInfo answers with it before the bytes come).
    func reserveHandle() -> UInt32 {
        state.withLock { $0.takeHandle() }
    }

    /// Records a file or folder the card has just written at `path` under the `handle` it reserved.
    /// Returns the handle the object has (a scan may have found it first) and whether it is new to the
    /// tree, which the caller then announces with ObjectAdded (`announceWritten`) once out of the scan
    /// turn. Call during the scan turn.
    func recordWritten(
        path: String, handle: UInt32, isFolder: Bool, size: UInt64, modified: Date
    ) -> (handle: UInt32, isNew: Bool) {
        let parentPath = path.split(separator: "/").dropLast().joined(separator: "/")
        let name = String(path.split(separator: "/").last ?? "")
        return state.withLock { state in
            if let existing = state.handleByPath[path] { return (existing, false) }
            let parent = parentPath.isEmpty ? 0 : (state.handleByPath[parentPath] ?? 0)
            _ = state.insert(
                path: path, name: name, parent: parent,
                content: isFolder ? .folder : .file(relativePath: path), size: size, modified: modified,
                handle: handle)
            state.diskHandles.insert(handle)
            if isFolder { state.diskFolders.insert(handle) }
            return (handle, true)
        }
    }

    /// Sends ObjectAdded for what `recordWritten` put in the tree; returns its handle.
    func announceWritten(_ written: (handle: UInt32, isNew: Bool)) -> UInt32 {
        if written.isNew { publish(PTPEvent(.objectAdded, parameters: [written.handle])) }
        return written.handle
    }
}
