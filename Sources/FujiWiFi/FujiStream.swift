import Foundation
import POSIX
import PTP

/// Reads and writes Fuji containers on one socket. Bytes are received into a window as large as the
/// socket has them (a small file's data container and its response usually come in one call) and taken
/// out of it field by field; a data payload is handed on in chunks of at most 1 MiB, never held whole.
/// A read holds the window's lock from its first byte to its last (one reader at a time, whatever the
/// threads); writers are serialized by the owner.
final class FujiStream: Sendable {
    let socket: Socket
    /// Bounds each wait for more bytes once a container has begun, and each wait while sending.
    let timeout: TimeInterval
    private let window = Locked(SocketReceiveBuffer(initialCapacity: 4096, payloadCapacity: FujiStream.chunkSize + (64 << 10)))
    /// Largest piece of a payload handed on at once, and of a data container's payload sent at once.
    static let chunkSize = 1 << 20

    init(socket: Socket, timeout: TimeInterval) {
        self.socket = socket
        self.timeout = timeout
    }

    var peer: String { socket.peer }

    /// True when bytes (or the end of the stream) are waiting, within `timeout` seconds (0: now).
    func hasInput(timeout: TimeInterval) throws -> Bool {
        if window.withLock({ $0.count }) > 0 { return true }
        do { return try socket.waitReadable(deadline: .after(timeout)) } catch { throw PTPError(error) }
    }

    // MARK: Reading

    /// Waits (`firstByteTimeout`, nil: for ever) for the first byte of the next packet; false when the
    /// peer closed the stream cleanly between packets.
    private func begin(
        _ window: SocketReceiveBuffer, firstByteTimeout: TimeInterval?, waitingFor: @autoclosure () -> String
    ) throws -> Bool {
        do {
            return try window.fill(1, from: socket, firstByteTimeout.map { .until(.after($0)) } ?? .forever)
        } catch where error.isTimeout {
            throw PTPError.timeout(.init(peer: peer, seconds: firstByteTimeout, awaited: .firstByte(purpose: waitingFor())))
        } catch {
            throw PTPError(error)
        }
    }

    /// Holds at least `count` bytes, each wait bounded by `timeout`; a peer that ends the stream first is
    /// `connectionClosed(closedEarly(bytes held))`.
    private func fill(_ window: SocketReceiveBuffer, _ count: Int, closedEarly: (Int) -> PTPError.ConnectionEnd.CutShort) throws {
        let complete: Bool
        do { complete = try window.fill(count, from: socket, .eachWait(timeout)) } catch { throw PTPError(error) }
        if !complete { throw PTPError.connectionClosed(.cutShort(peer: peer, closedEarly(window.count))) }
    }

    /// A handshake packet, whole (u32 length, checked to be 8 to 1024, then the rest); nil when the peer
    /// closed before sending anything.
    func readHandshakePacket(firstByteTimeout: TimeInterval?, what: String) throws -> [UInt8]? {
        try window.withLock { window in
            guard try begin(window, firstByteTimeout: firstByteTimeout, waitingFor: what) else { return nil }
            try fill(window, 4) { got in .header(what: what, received: got) }
            let announced = window.uint32(at: 0)
            let length = try FujiHandshake.checkedLength(announced, what: what)
            try fill(window, length) { got in .body(what: what, received: got, expected: length) }
            let bytes = [UInt8](window.bytes(length))
            window.consume(length)
            return bytes
        }
    }

    /// True when the next packet is another Fuji init request (libgphoto2 sends its init twice; bodies
    /// answer both): it is then taken whole. False for anything else, left unread; nil when the peer closed
    /// the stream cleanly first. Waits for ever for the packet to begin.
    func takeRepeatedInitRequest() throws -> [UInt8]? {
        try window.withLock { window in
            guard try begin(window, firstByteTimeout: nil, waitingFor: "a command") else { return nil }
            try fill(window, FujiContainerHeader.size) { got in .header(what: "a container header", received: got) }
            guard window.uint32(at: 0) == UInt32(FujiHandshake.requestLength), window.uint32(at: 4) == FujiHandshake.typeRequest,
                window.uint32(at: 8) == FujiHandshake.magic
            else { return [] }
            try fill(window, FujiHandshake.requestLength) { got in .header(what: "an init request", received: got) }
            let bytes = [UInt8](window.bytes(FujiHandshake.requestLength))
            window.consume(FujiHandshake.requestLength)
            return bytes
        }
    }

    /// The next container's header; nil when the peer closed the stream cleanly between containers.
    /// `waitingFor` names what is awaited, for the timeout's words.
    func readHeader(firstByteTimeout: TimeInterval?, waitingFor: @autoclosure () -> String) throws -> FujiContainerHeader? {
        let awaited = waitingFor()
        return try window.withLock { window in
            guard try begin(window, firstByteTimeout: firstByteTimeout, waitingFor: awaited) else { return nil }
            try fill(window, FujiContainerHeader.size) { got in .header(what: "a container header", received: got) }
            let header = try FujiContainerHeader(decoding: window.bytes(FujiContainerHeader.size))
            window.consume(FujiContainerHeader.size)
            return header
        }
    }

    /// The parameters of a command, response or event whose header was just read.
    func readParameters(_ header: FujiContainerHeader) throws -> [UInt32] {
        try window.withLock { window in
            let count = Int(header.payloadLength)
            try fill(window, count) { got in .container(kind: "\(header.kind)", received: UInt64(got), expected: UInt64(count)) }
            let parameters = FujiContainer.parameters(window.bytes(count))
            window.consume(count)
            return parameters
        }
    }

    /// Streams `length` payload bytes to `consume` in chunks of at most 1 MiB (one call for a payload
    /// that fits). Lock order: `consume` runs with the window's lock held (the chunk is a view of the window,
    /// not a copy), so it must not read this stream; it may write to it, close it, or take a lock of its own.
    func readPayload(_ length: UInt64, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        try withoutActuallyEscaping(consume) { consume in
            nonisolated(unsafe) let consume = consume  // called on this thread only, inside the lock
            try window.withLock { window in
                var remaining = length
                while remaining > 0 {
                    let count = Int(min(remaining, UInt64(Self.chunkSize)))
                    try fill(window, count) { got in .container(kind: "data", received: length - remaining + UInt64(got), expected: length) }
                    let chunk = window.bytes(count)
                    window.consume(count)
                    remaining -= UInt64(count)
                    try consume(chunk)
                }
            }
        }
    }

    // MARK: Writing

    func write(_ bytes: [UInt8]) throws {
        do { try socket.send(bytes, .eachWait(timeout)) } catch { throw PTPError(error) }
    }

    /// Writes `source` as one data container: the header and the first chunk in one send (a responder such
    /// as vcam reads a small container with one recv), then the rest in chunks of 1 MiB. `shouldStop`,
    /// asked between chunks, cannot end a container early (Fuji's framing has no way to), so the rest is
    /// then sent as zeros and false returned: the peer stays in step and the caller answers the transaction
    /// as cancelled.
    func writeData(code: UInt16, transactionID: UInt32, source: DataSource, shouldStop: () throws -> Bool = { false }) throws -> Bool {
        let total = source.length
        let header = try FujiContainer.dataHeader(code: code, transactionID: transactionID, payloadLength: total)
        var buffer = [UInt8](repeating: 0, count: header.count + Int(min(total, UInt64(Self.chunkSize))))
        buffer.replaceSubrange(0..<header.count, with: header)
        var sent: UInt64 = 0
        var stopped = false
        repeat {
            let count = Int(min(total - sent, UInt64(Self.chunkSize)))
            let head = sent == 0 ? header.count : 0
            if sent > 0, !stopped, try shouldStop() { stopped = true }
            try buffer.withUnsafeMutableBytes { raw in
                let area = UnsafeMutableRawBufferPointer(rebasing: raw[head..<(head + count)])
                if stopped {
                    area.initializeMemory(as: UInt8.self, repeating: 0)
                    return
                }
                var filled = 0
                while filled < count {
                    let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: area[filled...]))
                    guard n > 0 else {
                        throw PTPError.dataSourceEnded(sent: sent + UInt64(filled), announced: total)
                    }
                    filled += n
                }
            }
            try send(buffer, upTo: head + count)
            sent += UInt64(count)
        } while sent < total
        return !stopped
    }

    /// Sends the first `count` bytes of `buffer`.
    private func send(_ buffer: [UInt8], upTo count: Int) throws {
        let result: Result<Void, SystemError> = buffer.withUnsafeBytes { raw in
            Result { () throws(SystemError) in try socket.send(UnsafeRawBufferPointer(rebasing: raw[0..<count]), .eachWait(timeout)) }
        }
        do { try result.get() } catch { throw PTPError(error) }
    }
}
