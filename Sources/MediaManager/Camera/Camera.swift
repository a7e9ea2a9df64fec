import Foundation
import MediaFormats
import PTP

/// Who the camera is and what it can do.
public struct CameraSummary: Sendable {
    public var manufacturer: String
    public var model: String
    public var version: String
    public var serialNumber: String
    /// Where it was opened, e.g. "ptpip:127.0.0.1:15740".
    public var location: String
    public var canListInOneRequest: Bool
    public var canReadRanges: Bool
    public var canDelete: Bool
    public var canCapture: Bool
    public var hasThumbnails: Bool
    /// SendObjectInfo and SendObject: `put`, `mkdir`.
    public var canUpload: Bool = false
}

/// A store on the camera, e.g. an SD card.
public struct StorageSummary: Sendable, Equatable {
    public var id: UInt32
    public var label: String
    public var description: String
    public var capacity: UInt64
    public var free: UInt64
    public var readOnly: Bool
}

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
public final class Camera: @unchecked Sendable {
    public let session: PTPSession
    public let location: String
    private let onClose: (@Sendable () -> Void)?
    private let lock = NSLock()
    private var changeHandlers: [Int: @Sendable (CameraChange) -> Void] = [:]
    private var nextHandler = 0
    private var propListWorks: Bool

    /// Opens a PTP session over `transport`. `onClose` runs after the session closes (e.g. to stop an
    /// in-process responder).
    public init(transport: InitiatorTransport, location: String, onClose: (@Sendable () -> Void)? = nil) throws {
        session = PTPSession(transport: transport)
        self.location = location
        self.onClose = onClose
        do {
            try session.open()
        } catch {
            session.close()
            onClose?()
            throw error
        }
        propListWorks = session.supports(.getObjectPropList)
        session.setEventHandler { [weak self] event in self?.deliver(event) }
    }

    func setPropListWorks(_ value: Bool) { lock.withLock { propListWorks = value } }

    public func close() {
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
            canDelete: info.supports(.deleteObject), canCapture: info.supports(.initiateCapture),
            hasThumbnails: info.supports(.getThumb),
            canUpload: info.supports(.sendObjectInfo) && info.supports(.sendObject))
    }

    // MARK: Events

    /// Registers a handler for device changes; returns a token for `removeChangeHandler`.
    @discardableResult
    public func addChangeHandler(_ handler: @escaping @Sendable (CameraChange) -> Void) -> Int {
        lock.withLock {
            nextHandler += 1
            changeHandlers[nextHandler] = handler
            return nextHandler
        }
    }

    public func removeChangeHandler(_ token: Int) { lock.withLock { _ = changeHandlers.removeValue(forKey: token) } }

    private func deliver(_ event: PTPEvent) {
        let change: CameraChange
        switch event.code {
        case .objectAdded: change = .added(event.parameter(0))
        case .objectRemoved: change = .removed(event.parameter(0))
        case .objectInfoChanged: change = .changed(event.parameter(0))
        case .storeAdded, .storeRemoved, .storageInfoChanged, .deviceReset, .deviceInfoChanged: change = .storesChanged
        case .captureComplete: change = .captureComplete
        default: return
        }
        let handlers = lock.withLock { Array(changeHandlers.values) }
        for h in handlers { h(change) }
    }

    // MARK: Stores and listing

    public func storages() throws -> [StorageSummary] {
        try session.getStorageIDs().compactMap { id in
            // A slot without a card answers StoreNotAvailable: skip it.
            guard let info = try? session.getStorageInfo(id) else { return nil }
            return StorageSummary(
                id: id, label: info.volumeLabel, description: info.storageDescription,
                capacity: info.maxCapacity, free: info.freeSpaceInBytes, readOnly: info.isReadOnly)
        }
    }

    /// The objects directly in `folder` (nil: the root of `storage`), with `folderPath` as their folder.
    /// Uses one GetObjectPropList request where the device has it, else GetObjectHandles plus one
    /// GetObjectInfo per object (and ObjectSize where the 32-bit size saturates).
    public func list(folder: UInt32?, storage: UInt32, folderPath: String) throws -> [MediaFile] {
        if lock.withLock({ propListWorks }) {
            do {
                return try listWithPropList(folder: folder, storage: storage, folderPath: folderPath)
            } catch PTPError.response(let code, _)
                where code == .operationNotSupported || code == .specificationByDepthUnsupported
                || code == .parameterNotSupported || code == .invalidObjectPropCode
                || code == .specificationByGroupUnsupported || code == .invalidParameter
            {
                lock.withLock { propListWorks = false }
            }
        }
        return try listWithObjectInfo(folder: folder, storage: storage, folderPath: folderPath)
    }

    private func listWithPropList(folder: UInt32?, storage: UInt32, folderPath: String) throws -> [MediaFile] {
        let list = try session.getObjectPropList(handle: folder ?? 0, depth: 1)
        var files: [MediaFile] = []
        for (handle, props) in list.byObject() {
            if let s = props[.storageID]?.unsignedValue, UInt32(truncatingIfNeeded: s) != storage, folder == nil { continue }
            guard let name = props[.objectFileName]?.stringValue ?? props[.name]?.stringValue else {
                files.append(try file(handle, folderPath: folderPath))
                continue
            }
            let format = ObjectFormatCode(UInt16(truncatingIfNeeded: props[.objectFormat]?.unsignedValue ?? 0x3000))
            let date = (props[.dateCreated]?.stringValue).flatMap { PTPDateTime.parse($0) }
                ?? (props[.dateModified]?.stringValue).flatMap { PTPDateTime.parse($0) }
            var file = MediaFile(
                id: handle, storageID: UInt32(truncatingIfNeeded: props[.storageID]?.unsignedValue ?? UInt64(storage)),
                parentID: UInt32(truncatingIfNeeded: props[.parentObject]?.unsignedValue ?? UInt64(folder ?? 0)),
                name: name, folder: folderPath, kind: MediaKind(fileName: name), isFolder: format == .association,
                format: format, size: props[.objectSize]?.unsignedValue ?? 0, captureDate: date, video: nil)
            if file.kind.isVideo {
                let duration = props[.duration]?.unsignedValue.map { Double($0) / 1000 }
                let width = props[.width]?.unsignedValue.map { Int($0) }
                let height = props[.height]?.unsignedValue.map { Int($0) }
                let fps = props[.framesPerThousandSeconds]?.unsignedValue.map { Double($0) / 1000 }
                if duration != nil || width != nil {
                    file.video = VideoDetails(duration: duration, width: width, height: height, framesPerSecond: fps)
                }
            }
            files.append(file)
        }
        return files
    }

    private func listWithObjectInfo(folder: UInt32?, storage: UInt32, folderPath: String) throws -> [MediaFile] {
        try session.getObjectHandles(storage: storage, parent: folder ?? 0xFFFF_FFFF).map {
            try file($0, folderPath: folderPath)
        }
    }

    /// One object's description by handle (GetObjectInfo, and the 64-bit size where needed).
    public func file(_ handle: UInt32, folderPath: String) throws -> MediaFile {
        let info = try session.getObjectInfo(handle)
        var size = UInt64(info.compressedSize)
        if info.compressedSize == 0xFFFF_FFFF, session.supports(.getObjectPropValue),
            let big = try? session.getObjectPropValue(handle: handle, property: .objectSize, type: .uint64).unsignedValue
        {
            size = big
        }
        let date = PTPDateTime.parse(info.captureDate) ?? PTPDateTime.parse(info.modificationDate)
        return MediaFile(
            id: handle, storageID: info.storageID, parentID: info.parentObject == 0xFFFF_FFFF ? 0 : info.parentObject,
            name: info.filename, folder: folderPath, kind: MediaKind(fileName: info.filename),
            isFolder: info.isFolder, format: info.format, size: size,
            captureDate: date, video: nil)
    }

    // MARK: Reading, deleting, capturing

    /// Reads `count` bytes from `offset` of a file into `sink`; returns the bytes the device sent.
    public func read(_ file: MediaFile, offset: UInt64, count: Int, into sink: DataSink) throws -> Int {
        let counting = CountingSink(sink)
        if session.supports(.getPartialObject) || session.supports(.getPartialObject64) {
            let asked = UInt32(clamping: count)
            try session.getPartialObject(file.id, offset: offset, count: asked, into: counting)
        } else if offset == 0 && UInt64(count) >= file.size {
            try session.getObject(file.id, into: counting)
        } else {
            throw PTPError.response(.operationNotSupported, operation: .getPartialObject)
        }
        return counting.count
    }

    public func thumbnail(_ file: MediaFile) throws -> [UInt8] { try session.getThumb(file.id) }

    public func delete(_ file: MediaFile) throws { try session.deleteObject(file.id) }

    /// Takes a picture and waits (up to `timeout`) for the device to report the new objects.
    public func capture(timeout: TimeInterval = 30) throws -> [UInt32] {
        let collector = CaptureCollector()
        let token = addChangeHandler { collector.record($0) }
        defer { removeChangeHandler(token) }
        try session.initiateCapture()
        guard collector.waitForCompletion(timeout: timeout) else {
            throw PTPError.timeout("the camera did not report the capture within \(Int(timeout)) s")
        }
        return collector.added
    }
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
final class CaptureCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private(set) var added: [UInt32] = []
    private var complete = false

    func record(_ change: CameraChange) {
        condition.lock()
        switch change {
        case .added(let h): added.append(h)
        case .captureComplete: complete = true
        default: break
        }
        condition.broadcast()
        condition.unlock()
    }

    func waitForCompletion(timeout: TimeInterval) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !complete {
            if !condition.wait(until: deadline) { return complete }
        }
        return true
    }
}

extension Camera {
    /// Makes listing use GetObjectHandles and GetObjectInfo, as with a device that lacks GetObjectPropList.
    func disablePropListForTesting() { setPropListWorks(false) }
}
