import Foundation
import POSIX
import MediaFormats
import PTP

/// What changed on the device, from its events.
public enum CameraChange: Sendable, Equatable {
    case added(UInt32)
    case removed(UInt32)
    case changed(UInt32)
    case storesChanged
    case captureComplete
}

/// A camera reached over PTP (USB, PTP/IP, or the in-process virtual camera): the operations the media
/// manager needs, in terms of files rather than opcodes. Thread-safe (the session serializes requests).
public final class Camera: Sendable {
    public let session: PTPSession
    public let location: String
    /// For a camera on USB: the speed it runs at and the best it can do (nil otherwise, or unknown).
    public let usbLink: USBLink?
    private let onClose: (@Sendable () -> Void)?
    private let onWatch: (@Sendable () -> Void)?
    /// Who listens, and what the camera learned of the device while talking to it.
    private let state: Locked<State>

    private struct State {
        var changeHandlers: [Int: @Sendable (CameraChange) -> Void] = [:]
        var eventHandlers: [Int: @Sendable (PTPEvent) -> Void] = [:]
        var nextHandler = 0
        var propListTrusted: Bool
        var presentStores: [UInt32] = []
        var treeWanted = true
    }

    /// False once the device lacks GetObjectPropList or answered it with something that made no sense:
    /// listing then uses GetObjectHandles and GetObjectInfo for the rest of the session.
    var propListWorks: Bool { state.withLock { $0.propListTrusted } }
    /// The stores GetStorageIDs named last (cards present): what a StorageID in a listing is checked against.
    var knownStores: [UInt32] { state.withLock { $0.presentStores } }
    /// How this camera is spoken to beyond standard PTP, chosen from its DeviceInfo at open.
    public let dialect: CameraDialect
    /// Asks a camera whose dialect polls for its changes while something listens; nil for the others.
    private let poller: EventPoller?

    /// Opens a PTP session over `transport`. `onClose` runs after the session closes (e.g. to stop an
    /// in-process responder); `onWatch` is what `watchForChanges` asks of a camera that announces changes
    /// only when told to (a card folder served in-process: its watcher). `dialect`, when given, is spoken
    /// instead of the one DeviceInfo suggests (the connector knows a `fuji:` camera is on Fuji's Wi-Fi).
    /// `changeClock` is what `catchUpOnChanges` measures its freshness on (a test's manual clock).
    public init(
        transport: InitiatorTransport, location: String, onClose: (@Sendable () -> Void)? = nil,
        onWatch: (@Sendable () -> Void)? = nil, dialect spoken: CameraDialect? = nil, usbLink: USBLink? = nil,
        changeClock: any WaitClock = MonotonicClock()
    ) throws {
        session = PTPSession(transport: transport)
        self.location = location
        self.usbLink = usbLink
        self.onClose = onClose
        self.onWatch = onWatch
        let chosen: CameraDialect
        do {
            try session.open()
            chosen = spoken ?? CameraDialects.choose(for: session.deviceInfo)
            try chosen.didOpen(session)
        } catch {
            session.close()
            onClose?()
            throw error
        }
        dialect = chosen
        state = Locked(State(propListTrusted: session.supports(.getObjectPropList)))
        if let interval = chosen.pollInterval {
            // The camera owns the poller: the poller holds it weakly, set once init is done (the poller
            // delivers nothing before the camera is there to take it).
            let box = Locked(WeakCamera())
            let session = self.session
            poller = EventPoller(
                interval: interval, keepAliveInterval: chosen.keepAliveInterval,
                poll: { try chosen.poll(session) }, keepAlive: { try chosen.keepAlive(session) },
                deliver: { events in box.withLock { $0.camera }?.deliver(events) }, freshnessClock: changeClock)
            box.withLock { $0.camera = self }
        } else {
            poller = nil
        }
        session.setEventHandler { [weak self] event in self?.deliver(event) }
    }

    /// Whether listings trust GetObjectPropList; false: GetObjectHandles and GetObjectInfo, as with a device
    /// that lacks it (a listing sets it false itself when the device's answer proves wrong).
    func setPropListWorks(_ value: Bool) { state.withLock { $0.propListTrusted = value } }

    /// False when the catalog must read folder by folder instead of the whole card in one request, as with
    /// a device that refuses GetObjectPropList's Depth all.
    var treeListingWanted: Bool { state.withLock { $0.treeWanted } }

    func setTreeListingWanted(_ value: Bool) { state.withLock { $0.treeWanted = value } }

    public func close() {
        poller?.stop()
        dialect.willClose(session)
        session.close()
        onClose?()
    }

    public var summary: CameraSummary {
        let info = session.deviceInfo
        return CameraSummary(
            manufacturer: info.manufacturer, model: info.model, version: info.deviceVersion,
            serialNumber: info.serialNumber, location: location,
            canListInOneRequest: info.supports(.getObjectPropList),
            canReadRanges: info.supports(.getPartialObject) || info.supports(.getPartialObject64),
            canDelete: info.supports(.deleteObject), canCapture: dialect.canCapture(session),
            hasThumbnails: info.supports(.getThumb),
            canUpload: info.supports(.sendObjectInfo) && info.supports(.sendObject), dialect: dialect.kind)
    }

    // MARK: Events

    /// Registers a handler for device changes; returns a token for `removeChangeHandler`.
    @discardableResult
    public func addChangeHandler(_ handler: @escaping @Sendable (CameraChange) -> Void) -> Int {
        state.withLock { state in
            state.nextHandler += 1
            state.changeHandlers[state.nextHandler] = handler
            return state.nextHandler
        }
    }

    public func removeChangeHandler(_ token: Int) { state.withLock { _ = $0.changeHandlers.removeValue(forKey: token) } }

    /// Registers a handler for every event as the device sent it (`events`), unknown codes included;
    /// returns a token for `removeEventHandler`. Called on a transport thread (or the dialect's poller).
    /// A camera whose dialect polls for its changes is polled while such a handler is registered.
    @discardableResult
    public func addEventHandler(_ handler: @escaping @Sendable (PTPEvent) -> Void) -> Int {
        let token = state.withLock { state in
            state.nextHandler += 1
            state.eventHandlers[state.nextHandler] = handler
            return state.nextHandler
        }
        poller?.acquire()
        return token
    }

    public func removeEventHandler(_ token: Int) {
        let removed = state.withLock { $0.eventHandlers.removeValue(forKey: token) != nil }
        if removed { poller?.release() }
    }

    /// True when the camera reports new objects (ObjectAdded): pushed, where DeviceInfo lists the event, or
    /// found by its dialect's polling. False: new files are found only by listing again.
    public var announcesNewObjects: Bool {
        poller != nil || session.deviceInfo.eventsSupported.contains(.objectAdded)
    }

    /// True when this camera's changes are polled for (its dialect has no pushed events).
    public var pollsForChanges: Bool { poller != nil }

    /// True while the poller is asking the camera for its changes (something listens).
    public var isPollingForChanges: Bool { poller?.isPolling ?? false }

    /// For a camera whose changes are polled for: asks once now, unless it was asked within `freshness`
    /// seconds, so the changes since are delivered (the catalog calls it before it answers from its cache).
    /// Does nothing for a camera that pushes its events.
    public func catchUpOnChanges(freshness: TimeInterval = 1) throws {
        try poller?.catchUp(freshness: freshness)
    }

    /// Holds the poller on while `body` runs (a capture waiting for its objects).
    func whileListening<T>(_ body: () throws -> T) rethrows -> T {
        poller?.acquire()
        defer { poller?.release() }
        return try body()
    }

    /// True when the camera is told to watch for changes before it announces them (`watchForChanges`).
    public var announcesChangesOnlyWhenWatched: Bool { onWatch != nil }

    /// Asks a camera that announces changes only when watched (a card folder) to start; others announce
    /// what changes anyway. Idempotent.
    public func watchForChanges() { onWatch?() }

    private func deliver(_ events: [PTPEvent]) {
        for event in events { deliver(event) }
    }

    private func deliver(_ event: PTPEvent) {
        let raw = state.withLock { Array($0.eventHandlers.values) }
        for h in raw { h(event) }
        let change: CameraChange
        switch event.code {
        case .objectAdded: change = .added(event.parameter(0))
        case .objectRemoved: change = .removed(event.parameter(0))
        case .objectInfoChanged: change = .changed(event.parameter(0))
        case .storeAdded, .storeRemoved, .storageInfoChanged, .deviceReset, .deviceInfoChanged: change = .storesChanged
        case .captureComplete: change = .captureComplete
        default: return
        }
        let handlers = state.withLock { Array($0.changeHandlers.values) }
        for h in handlers { h(change) }
    }

    // MARK: Stores and listing

    public func storages() throws -> [StorageSummary] {
        try presentStorageIDs().compactMap { id in
            // A slot without a card answers StoreNotAvailable: skip it.
            guard let info = try? session.getStorageInfo(id) else { return nil }
            return StorageSummary(
                id: id, label: info.volumeLabel, description: info.storageDescription,
                capacity: info.maxCapacity, free: info.freeSpaceInBytes, readOnly: info.isReadOnly,
                deletesAllowed: !info.isReadOnly || info.accessCapability == StorageInfo.AccessCapability.readOnlyWithDeletion.rawValue)
        }
    }

    /// The stores a listing reads. With one store the card is listed without asking for its StorageInfo
    /// (a round trip fewer at every open; a slot without a card then answers StoreNotAvailable to the
    /// listing itself, which the catalog takes as an empty card). With several, those whose StorageInfo
    /// answers, as `storages()`.
    public func listedStorageIDs() throws -> [UInt32] {
        let ids = try presentStorageIDs()
        return ids.count <= 1 ? ids : try storages().map(\.id)
    }

    /// GetStorageIDs without the IDs PTP reserves for a physical store with no logical one in it (no
    /// card in the slot): those whose low 16 bits are 0x0000.
    private func presentStorageIDs() throws -> [UInt32] {
        let ids = try session.getStorageIDs().filter { $0 & 0xFFFF != 0 }
        state.withLock { $0.presentStores = ids }
        return ids
    }

    /// One object's description by handle (GetObjectInfo, and the 64-bit size where needed). Its
    /// StorageID and ParentObject are the device's word: a listing checks them (`describe`).
    public func file(_ handle: UInt32, folderPath: String) throws -> MediaFile {
        let info = try session.getObjectInfo(handle)
        var size = info.size
        if info.wideCompressedSize == nil, info.compressedSize == 0xFFFF_FFFF, session.supports(.getObjectPropValue),
            let big = try? session.getObjectPropValue(handle: handle, property: .objectSize, type: .uint64).unsignedValue
        {
            size = big
        }
        let date = PTPDateTime.parse(info.captureDate) ?? PTPDateTime.parse(info.modificationDate)
        var file = MediaFile(
            id: handle, storageID: info.storageID, parentID: info.parentObject == 0xFFFF_FFFF ? 0 : info.parentObject,
            name: info.filename, folder: folderPath, kind: MediaKind(fileName: info.filename, format: info.format),
            isFolder: info.isFolder, format: info.format, size: size,
            captureDate: date, video: nil)
        file.thumbnailListed = info.thumbFormat.rawValue != 0 && info.thumbCompressedSize != 0
        return file
    }

    // MARK: Reading, deleting, capturing

    /// True when the device lists GetPartialObject or GetPartialObject64: a file can be read in pieces
    /// (resumes, playback, headers); else only whole, through GetObject.
    public var canReadRanges: Bool { session.supports(.getPartialObject) || session.supports(.getPartialObject64) }

    /// Reads `count` bytes from `offset` of a file into `sink`; returns the bytes the device sent. Without
    /// partial reads only the whole file can be read (offset 0, the whole size).
    public func read(_ file: MediaFile, offset: UInt64, count: Int, into sink: DataSink) throws -> Int {
        let counting = CountingSink(sink)
        if canReadRanges {
            let asked = UInt32(clamping: count)
            try session.getPartialObject(file.id, offset: offset, count: asked, into: counting)
        } else if offset == 0 && UInt64(count) >= file.size {
            try session.getObject(file.id, into: counting)
        } else {
            throw CameraCapabilityError.cannotReadRanges
        }
        return counting.count
    }

    /// The device's thumbnail. Not asked when the device has no GetThumb, or when its ObjectInfo said the
    /// object has none (thumb format 0 or size 0); a general error for such an object means none too.
    public func thumbnail(_ file: MediaFile) throws -> [UInt8] {
        guard session.supports(.getThumb) else { throw CameraCapabilityError.noThumbnail }
        if file.hasNoDeviceThumbnail { throw CameraCapabilityError.noThumbnail }
        do {
            return try session.getThumb(file.id)
        } catch PTPError.response(let code, _, _) where code == .noThumbnailPresent || code == .generalError && file.thumbnailListed != true {
            throw CameraCapabilityError.noThumbnail
        }
    }

    public func delete(_ file: MediaFile) throws {
        guard session.supports(.deleteObject) else { throw CameraCapabilityError.notOffered("deleting files") }
        try session.deleteObject(file.id)
    }

    /// What the device said about a capture: the objects it reported, and whether it said it was done.
    public struct CaptureEvents: Sendable {
        public var added: [UInt32]
        /// CaptureComplete arrived. False with `added` empty: the camera sent no events at all.
        public var completed: Bool
    }

    /// Takes a picture and waits (up to `timeout`, and until `cancellation` says so, polled a few times a
    /// second) for the device to report the new objects. Cameras that send no events (many PTP/IP ones)
    /// come back with nothing after the timeout: the caller compares listings then.
    public func capture(timeout: TimeInterval = 30, cancellation: Cancellation = .never) throws -> CaptureEvents {
        let collector = CaptureCollector()
        let token = addChangeHandler { collector.record($0) }
        defer { removeChangeHandler(token) }
        guard dialect.canCapture(session) else { throw CameraCapabilityError.notOffered("capture") }
        return try whileListening {
            try dialect.capture(session)
            let completed = collector.waitForCompletion(timeout: timeout, cancellation: cancellation)
            if cancellation.isCancelled && !completed && collector.added.isEmpty { throw CancellationError() }
            return CaptureEvents(added: collector.added, completed: completed)
        }
    }
}

/// The camera a poller delivers to, held weakly (the camera owns the poller).
private struct WeakCamera {
    weak var camera: Camera?
}

/// Counts the bytes passing to another sink.
final class CountingSink: DataSink {
    let inner: DataSink
    var count = 0
    init(_ inner: DataSink) { self.inner = inner }
    func begin(expectedLength: UInt64?) throws { try inner.begin(expectedLength: expectedLength) }
    func write(_ chunk: UnsafeRawBufferPointer) throws {
        try inner.write(chunk)
        count += chunk.count
    }
}

/// Gathers ObjectAdded events until CaptureComplete.
final class CaptureCollector: Sendable {
    /// The objects added so far (an ObjectAdded may still arrive after CaptureComplete), and whether it came.
    private let gathered = LockedCondition((added: [UInt32](), complete: false))

    var added: [UInt32] { gathered.withLock { $0.added } }

    func record(_ change: CameraChange) {
        gathered.change { gathered in
            switch change {
            case .added(let h): gathered.added.append(h)
            case .captureComplete: gathered.complete = true
            default: break
            }
        }
    }

    /// True once CaptureComplete came; false after `timeout` (on the monotonic clock) or when `cancellation`
    /// (asked every 0.2 s).
    func waitForCompletion(timeout: TimeInterval, cancellation: Cancellation = .never) -> Bool {
        let deadline = Deadline.after(timeout)
        while !cancellation.isCancelled {
            let slice = Deadline.after(min(0.2, max(deadline.remaining, 0)))
            if gathered.wait(until: slice, for: { $0.complete }) { return true }
            if deadline.hasPassed { return gathered.withLock { $0.complete } }
        }
        return false
    }
}
