import Foundation
import POSIX
import PTP
@testable import PTPIP
import TestSupport
import Testing

/// Every test that opens sockets or starts threads lives in this suite (or one nested in it), so they run
/// one at a time and the descriptor/thread counts of the hygiene test see nobody else's.
@Suite(.serialized, .tags(.process, .port), .notInFastRun) struct Network {}

// MARK: Waiting with a bound

/// Collects a server's log lines.
final class LogLines: @unchecked Sendable {
    let lines = Mailbox<String>()
    var sink: @Sendable (String) -> Void { { [lines] in lines.put($0) } }

    /// Waits for a line containing every one of `parts`.
    func waitFor(_ parts: String..., timeout: TimeInterval = 10) -> String? {
        waitFor(parts, timeout: timeout)
    }

    func waitFor(_ parts: [String], timeout: TimeInterval = 10) -> String? {
        lines.take(timeout: timeout) { line in parts.allSatisfy { line.contains($0) } }
    }
}

// MARK: Data

/// A deterministic byte pattern, so any size can be produced and checked without holding it.
func patternByte(_ index: UInt64) -> UInt8 {
    UInt8(truncatingIfNeeded: (index &* 2_654_435_761) >> 11 ^ index)
}

func pattern(_ count: Int) -> [UInt8] { (0..<UInt64(count)).map(patternByte) }

/// `length` bytes of the pattern, generated as they are read.
final class PatternSource: DataSource {
    let length: UInt64
    private var position: UInt64 = 0

    init(length: UInt64) { self.length = length }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = Int(min(UInt64(buffer.count), length - position))
        for i in 0..<count { buffer[i] = patternByte(position + UInt64(i)) }
        position += UInt64(count)
        return count
    }
}

/// A sink that fails on its first chunk, like a user pressing Ctrl-C during a download.
final class CancellingSink: DataSink {
    private(set) var written = 0
    func begin(expectedLength: UInt64?) throws {}
    func write(_ chunk: UnsafeRawBufferPointer) throws {
        written += chunk.count
        throw CancellationError()
    }
}

// MARK: A small responder

/// What the test responder saw, for assertions.
final class ResponderRecord: Sendable {
    private let _cancelled = Locked<[UInt32]>([])
    private let _peers = Locked<[PTPIPPeerInfo]>([])
    let finished = Mailbox<UInt32>()
    let greeted = Mailbox<UInt32>()

    func cancelled(_ id: UInt32) { _cancelled.withLock { $0.append(id) } }
    var cancelledTransactions: [UInt32] { _cancelled.withLock { $0 } }
    func connected(_ peer: PTPIPPeerInfo) { _peers.withLock { $0.append(peer) } }
    var peers: [PTPIPPeerInfo] { _peers.withLock { $0 } }
}

enum TestDevice {
    /// Object handles and their sizes; the content is the pattern.
    static let objects: [UInt32: UInt64] = [1: 5 << 20 + 3, 2: 0, 3: 256 << 20]
    static let pingBack = OperationCode(0x9801)
    static let storageID: UInt32 = 0x0001_0001

    static var deviceInfo: DeviceInfo {
        var info = DeviceInfo()
        info.manufacturer = "mediashell tests"
        info.model = "Loopback Responder"
        info.deviceVersion = "1.0"
        info.serialNumber = "0001"
        info.operationsSupported = [
            .getDeviceInfo, .openSession, .closeSession, .getStorageIDs, .getStorageInfo, .getObjectHandles,
            .getObjectInfo, .getObject, .sendObject,
        ]
        return info
    }

    /// A responder loop: GetDeviceInfo, Open/CloseSession, GetStorageIDs (none), GetObject (the pattern,
    /// by handle), SendObject (checks the pattern; parameter 1 is the limit; answers with the byte count),
    /// InitiateCapture (sends ObjectAdded 42 first), `pingBack` (pings the initiator).
    /// With `greet`, an event is sent before anything else, possibly before the event socket exists.
    /// With `card`, one store holding PATTERN.BIN (handle 1) and EMPTY.BIN (handle 2), as gphoto2 lists it.
    static func handler(
        record: ResponderRecord = ResponderRecord(), greet: Bool = false, card: Bool = false
    ) -> PTPIPServer.Handler {
        { connection, peer in
            record.connected(peer)
            defer { record.finished.put(peer.connectionNumber) }
            if greet {
                try connection.sendEvent(PTPEvent(.deviceInfoChanged, parameters: [7]))
                record.greeted.put(peer.connectionNumber)
            }
            while let incoming = try connection.receiveCommand() {
                let command = incoming.command
                let id = command.transactionID
                func respond(_ code: ResponseCode, _ parameters: [UInt32] = []) throws {
                    try connection.sendResponse(PTPResponse(code, transactionID: id, parameters: parameters))
                }
                switch command.code {
                case .getDeviceInfo:
                    try connection.sendData(transactionID: id, source: BufferSource(deviceInfo.encoded()))
                    try respond(.ok)
                case .openSession, .closeSession:
                    try respond(.ok)
                case .getStorageIDs:
                    var w = PTPWriter()
                    w.uint32Array(card ? [storageID] : [])
                    try connection.sendData(transactionID: id, source: BufferSource(w.bytes))
                    try respond(.ok)
                case .getStorageInfo where card:
                    var info = StorageInfo()
                    info.storageDescription = "Test Card"
                    info.maxCapacity = 1 << 30
                    info.freeSpaceInBytes = 1 << 29
                    try connection.sendData(transactionID: id, source: BufferSource(info.encoded()))
                    try respond(.ok)
                case .getObjectHandles where card:
                    var w = PTPWriter()
                    w.uint32Array(command.parameter(2) == 0 || command.parameter(2) == 0xFFFF_FFFF ? [1, 2] : [])
                    try connection.sendData(transactionID: id, source: BufferSource(w.bytes))
                    try respond(.ok)
                case .getObjectInfo where card:
                    let handle = command.parameter(0)
                    guard let size = objects[handle], handle != 3 else {
                        try respond(.invalidObjectHandle)
                        continue
                    }
                    var info = ObjectInfo()
                    info.storageID = storageID
                    info.format = .text  // gphoto2 refuses to download format "undefined"
                    info.compressedSize = UInt32(size)
                    info.parentObject = 0
                    info.filename = handle == 1 ? "PATTERN.BIN" : "EMPTY.BIN"
                    info.captureDate = "20240102T030405"
                    info.modificationDate = "20240102T030405"
                    try connection.sendData(transactionID: id, source: BufferSource(info.encoded()))
                    try respond(.ok)
                case .getObject:
                    guard let size = objects[command.parameter(0)] else {
                        try respond(.invalidObjectHandle)
                        continue
                    }
                    do {
                        try connection.sendData(transactionID: id, source: PatternSource(length: size))
                    } catch is CancellationError {
                        record.cancelled(id)
                    }
                    try respond(.ok)
                case .sendObject:
                    do {
                        let bytes = try connection.receiveData(transactionID: id, limit: Int(command.parameter(0)))
                        try respond(bytes == pattern(bytes.count) ? .ok : .incompleteTransfer, [UInt32(bytes.count)])
                    } catch PTPError.dataTooLarge {
                        try respond(.objectTooLarge)
                    }
                case .initiateCapture:
                    try connection.sendEvent(PTPEvent(.objectAdded, transactionID: id, parameters: [42]))
                    try respond(.ok)
                case pingBack:
                    try connection.ping(timeout: 10)
                    try respond(.ok)
                default:
                    if incoming.hasDataOut { _ = try connection.receiveData(transactionID: id, limit: 1 << 20) }
                    try respond(.operationNotSupported)
                }
            }
        }
    }
}

/// A started server on an ephemeral loopback port; stop it with `stop()`.
func startServer(
    timeouts: PTPIPTimeouts = PTPIPTimeouts(connect: 5, read: 10, handshake: 5),
    log: LogLines = LogLines(), handler: @escaping PTPIPServer.Handler = TestDevice.handler()
) throws -> PTPIPServer {
    let server = PTPIPServer(host: "127.0.0.1", port: 0, name: "Test Camera", timeouts: timeouts, log: log.sink,
                             handler: handler)
    try server.start()
    return server
}

func connectInitiator(to server: PTPIPServer, name: String = "test-host") throws -> PTPIPInitiator {
    try PTPIPInitiator.connect(
        host: "127.0.0.1", port: server.port, name: name,
        timeouts: PTPIPTimeouts(connect: 5, read: 10))
}

/// A client at the raw socket level, to say exactly what a test wants on the wire.
final class RawClient {
    let stream: PacketStream
    var socket: Socket { stream.socket }

    init(port: UInt16) throws {
        stream = PacketStream(socket: try Socket.connect(host: "127.0.0.1", port: port, timeout: 5), timeout: 10)
    }

    func send(_ bytes: [UInt8]) throws { try socket.send(bytes, timeout: 5) }

    deinit { socket.close() }
}

// MARK: Process hygiene

/// Open descriptors of this process.
func openDescriptorCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}

/// Live threads of this process whose name is `name`.
func threadCounts(named name: String) -> Int {
    liveThreads().values.filter { $0 == name }.count
}

/// Live threads of this process, and how many of them are this module's (named "ptpip-…").
func threadCounts() -> (total: Int, ptpip: Int) {
    let live = liveThreads()
    return (live.count, live.values.filter { $0.hasPrefix("ptpip-") }.count)
}
