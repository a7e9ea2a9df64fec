import POSIX
import Foundation

/// The initiator's session with a device: numbers transactions, runs their phases over a transport,
/// turns non-OK responses into `PTPError.response`, and offers the operations by name.
/// Thread-safe: transactions from several threads take turns (`TransactionTurns`), one at a time, and a
/// thread marked background (`PTPSession.asBackground`, a job's chunks) lets every interactive request
/// waiting go first.
public final class PTPSession: Sendable {
    // The numbering is taken during a turn of `turns` (held for the whole of each transaction), so ids go
    // out in the order the transactions run; DeviceInfo lives in a lock of its own, so asking `supports`
    // never waits for a transaction.
    public let transport: InitiatorTransport
    private let turns = TransactionTurns()
    private let numbering = Locked(Numbering())

    /// Whether a session is open, and the id the next transaction in it gets.
    private struct Numbering {
        var sessionOpen = false
        var nextTransactionID: UInt32 = 1

        /// The id for the next transaction, counted on (0 and 0xFFFFFFFF are never used).
        mutating func next() -> UInt32 {
            let id = nextTransactionID
            nextTransactionID = id >= 0xFFFF_FFFE ? 1 : id + 1
            return id
        }

        /// GetDeviceInfo's id: the next one in a session, 0 outside one.
        mutating func nextForDeviceInfo() -> UInt32 { sessionOpen ? next() : 0 }
    }

    private let info = Locked(DeviceInfo())

    /// What the device said about itself; filled by `open()`.
    public var deviceInfo: DeviceInfo { info.withLock { $0 } }

    public init(transport: InitiatorTransport) {
        self.transport = transport
    }

    /// Delivers device events (on a transport thread).
    public func setEventHandler(_ handler: (@Sendable (PTPEvent) -> Void)?) {
        transport.setEventHandler(handler)
    }

    /// Opens session `id` (OpenSession is sent with transaction id 0), then reads DeviceInfo inside it, in
    /// the order libgphoto2 uses: some devices refuse GetDeviceInfo outside a session, and some count
    /// transaction ids strictly from the connection's start. A session the device kept open from an earlier
    /// connection (SessionAlreadyOpen) is used as it is.
    public func open(id: UInt32 = 1) throws {
        let response = try turn {
            try transport.transact(
                PTPCommand(.openSession, transactionID: 0, parameters: [id]), dataOut: nil, dataIn: nil)
        }
        guard response.code == .ok || response.code == .sessionAlreadyOpen else {
            throw PTPError.response(response.code, operation: .openSession, transaction: response.transactionID)
        }
        turns.exclusively {
            numbering.withLock { $0 = Numbering(sessionOpen: true, nextTransactionID: 1) }
        }
        let fresh = try getDeviceInfo()
        info.withLock { $0 = fresh }
    }

    /// Reads DeviceInfo again (some bodies change it once put under remote control, as Canon's EOS M does
    /// after SetRemoteMode) and keeps the new one.
    public func refreshDeviceInfo() throws {
        let fresh = try getDeviceInfo()
        info.withLock { $0 = fresh }
    }

    /// Closes the session (best effort) and the transport.
    public func close() {
        if turns.exclusively({ numbering.withLock { $0.sessionOpen } }) {
            _ = try? execute(.closeSession)
        }
        turns.exclusively { numbering.withLock { $0.sessionOpen = false } }
        transport.close()
    }

    public func supports(_ operation: OperationCode) -> Bool { deviceInfo.supports(operation) }

    // MARK: Transactions

    /// Runs `body` so that once `cancellation` says so, no further transaction it sends (on this thread) is
    /// sent: each throws `CancellationError` instead, also while it waits for its turn. A transaction already
    /// under way is not affected (the transport's timeout bounds it; `Camera.interruptibly` ends one the
    /// device never answers). Nests: the inner test replaces the outer one for its scope. Other threads'
    /// transactions (a job's, the prompt's) are not affected.
    public func whileCancellable<T>(_ cancellation: Cancellation, _ body: () throws -> T) rethrows -> T {
        try Self.$callerCancellation.withValue(cancellation, operation: body)
    }

    /// Throws `CancellationError` when a `whileCancellable` caller said stop.
    private func checkCancelled() throws {
        try Self.callerCancellation?.check()
    }

    /// Runs `body` (one transaction) in the calling thread's turn: its priority, its cancellation.
    private func turn<T>(_ body: () throws -> T) throws -> T {
        try turns.run(Self.callerPriority, cancellation: Self.callerCancellation, body)
    }

    /// Callers waiting for their turn now, of each priority.
    public var waitingCallers: (interactive: Int, background: Int) { turns.waiting }

    /// Waits (at most `timeout` seconds) until the waiting callers are as `predicate` wants; says whether
    /// they were. For tests that must know a request is queued before they let the one in flight finish.
    public func waitForCallers(
        timeout: TimeInterval, until predicate: ((interactive: Int, background: Int)) -> Bool
    ) -> Bool {
        turns.wait(timeout: timeout, until: predicate)
    }

    /// Runs one transaction; throws unless the response is OK.
    @discardableResult
    public func execute(
        _ operation: OperationCode, _ parameters: [UInt32] = [], dataOut: DataSource? = nil, dataIn: DataSink? = nil
    ) throws -> PTPResponse {
        try checkCancelled()
        let response = try turn {
            let id = numbering.withLock { $0.next() }
            return try transport.transact(
                PTPCommand(operation, transactionID: id, parameters: parameters), dataOut: dataOut, dataIn: dataIn)
        }
        guard response.code == .ok else { throw PTPError.response(response.code, operation: operation, transaction: response.transactionID) }
        return response
    }

    /// Runs a transaction whose data phase comes back to us, collected in memory up to `limit` bytes.
    public func request(_ operation: OperationCode, _ parameters: [UInt32] = [], limit: Int = 64 << 20) throws -> [UInt8] {
        let sink = BufferSink(limit: limit)
        try execute(operation, parameters, dataIn: sink)
        return sink.bytes
    }

    // MARK: Operations by name

    public func getDeviceInfo() throws -> DeviceInfo {
        // GetDeviceInfo is allowed outside a session; it uses transaction id 0 then.
        try checkCancelled()
        let sink = BufferSink(limit: 1 << 20)
        let response = try turn {
            let id = numbering.withLock { $0.nextForDeviceInfo() }
            return try transport.transact(PTPCommand(.getDeviceInfo, transactionID: id), dataOut: nil, dataIn: sink)
        }
        guard response.code == .ok else { throw PTPError.response(response.code, operation: .getDeviceInfo, transaction: response.transactionID) }
        return try DeviceInfo(decoding: sink.bytes)
    }

    public func getStorageIDs() throws -> [UInt32] {
        var r = PTPReader(try request(.getStorageIDs, limit: 1 << 20), context: "StorageIDs")
        return try r.uint32Array()
    }

    public func getStorageInfo(_ storageID: UInt32) throws -> StorageInfo {
        try StorageInfo(decoding: try request(.getStorageInfo, [storageID], limit: 1 << 20))
    }

    /// Handles of the objects in `storage` (0xFFFFFFFF: all stores) under `parent`
    /// (0xFFFFFFFF: the root; 0: every object, recursively), optionally of one `format`.
    public func getObjectHandles(
        storage: UInt32 = 0xFFFF_FFFF, format: ObjectFormatCode? = nil, parent: UInt32 = 0
    ) throws -> [UInt32] {
        var r = PTPReader(
            try request(.getObjectHandles, [storage, UInt32(format?.rawValue ?? 0), parent], limit: 256 << 20),
            context: "ObjectHandles")
        return try r.uint32Array()
    }

    public func getObjectInfo(_ handle: UInt32) throws -> ObjectInfo {
        try ObjectInfo(decoding: try request(.getObjectInfo, [handle], limit: 1 << 20))
    }

    /// MTP GetObjectPropList. `handle` 0xFFFFFFFF means all objects; `depth` 1 with a folder handle lists
    /// that folder's children; `property` 0xFFFFFFFF asks for every property.
    public func getObjectPropList(
        handle: UInt32, format: UInt32 = 0, property: UInt32 = 0xFFFF_FFFF, group: UInt32 = 0, depth: UInt32 = 0
    ) throws -> ObjectPropList {
        try ObjectPropList(
            decoding: try request(.getObjectPropList, [handle, format, property, group, depth], limit: 512 << 20))
    }

    /// GetObjectPropList decoded into one compact record per object (what listings need): the answer's
    /// bytes are dropped as soon as they are decoded.
    public func listObjects(handle: UInt32, depth: UInt32) throws -> [ListedObject] {
        let decoder = ListedObjectDecoder(limit: 512 << 20)
        try execute(.getObjectPropList, [handle, 0, 0xFFFF_FFFF, 0, depth], dataIn: decoder)
        return try decoder.finish()
    }

    public func getObjectPropValue(handle: UInt32, property: ObjectPropertyCode, type: DataTypeCode) throws -> PTPValue {
        var r = PTPReader(
            try request(.getObjectPropValue, [handle, UInt32(property.rawValue)], limit: 1 << 20),
            context: "ObjectPropValue")
        return try PTPValue.decode(type, from: &r)
    }

    /// The whole object, streamed into `sink`.
    public func getObject(_ handle: UInt32, into sink: DataSink) throws {
        try execute(.getObject, [handle], dataIn: sink)
    }

    /// Up to `count` bytes from `offset`. Uses GetPartialObject64 when the offset needs more than 32 bits
    /// (and the device has it). Returns the number of bytes the device says it sent.
    @discardableResult
    public func getPartialObject(_ handle: UInt32, offset: UInt64, count: UInt32, into sink: DataSink) throws -> UInt32 {
        let response: PTPResponse
        if offset > UInt64(UInt32.max) || (supports(.getPartialObject64) && !supports(.getPartialObject)) {
            guard supports(.getPartialObject64) else {
                throw PTPError.response(.operationNotSupported, operation: .getPartialObject64, transaction: nil)
            }
            response = try execute(
                .getPartialObject64,
                [handle, UInt32(truncatingIfNeeded: offset), UInt32(truncatingIfNeeded: offset >> 32), count],
                dataIn: sink)
        } else {
            response = try execute(.getPartialObject, [handle, UInt32(offset), count], dataIn: sink)
        }
        return response.parameter(0)
    }

    public func getThumb(_ handle: UInt32) throws -> [UInt8] {
        try request(.getThumb, [handle], limit: 16 << 20)
    }

    public func deleteObject(_ handle: UInt32) throws {
        try execute(.deleteObject, [handle, 0])
    }

    public func initiateCapture(storage: UInt32 = 0, format: ObjectFormatCode? = nil) throws {
        try execute(.initiateCapture, [storage, UInt32(format?.rawValue ?? 0)])
    }

    /// SendObjectInfo: announces a file (or, with the association format, creates a folder) in `parent`
    /// (0xFFFFFFFF: the root) of `storage`. Returns the handle the device gives it.
    public func sendObjectInfo(_ info: ObjectInfo, storage: UInt32, parent: UInt32) throws -> UInt32 {
        let response = try execute(.sendObjectInfo, [storage, parent], dataOut: BufferSource(info.encoded()))
        return response.parameter(2)
    }

    /// SendObject: the bytes of the file the last SendObjectInfo announced.
    public func sendObject(_ source: DataSource) throws {
        try execute(.sendObject, dataOut: source)
    }
}
