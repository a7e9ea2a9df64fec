import Foundation
import POSIX

/// A stream socket read in frames: PTP/IP's packets, Fujifilm's containers. What arrives is held in one
/// receive buffer (`SocketReceiveBuffer`) and taken out field by field; a frame's payload is handed on in
/// chunks of at most `chunkSize`, never held whole. A frame is read with the buffer's lock held from its
/// first byte to its last (one reader at a time, whatever the threads); writers are serialized by the
/// owner. The framing of each protocol (its headers) lives in its module; the waiting, the bounds and the
/// errors of a peer that stops or ends early live here, once.
public final class FramedSocket: Sendable {
    public let socket: Socket
    /// Bounds each wait for more bytes once a frame has begun, and each wait while sending.
    public let timeout: TimeInterval
    /// Largest piece of a payload handed on at once (and of a data frame sent).
    public let chunkSize: Int
    private let received: Locked<SocketReceiveBuffer>

    /// `controlCapacity`: room for the protocol's largest control frame (grown once for a large payload).
    public init(socket: Socket, timeout: TimeInterval, controlCapacity: Int, chunkSize: Int = 1 << 20) {
        self.socket = socket
        self.timeout = timeout
        self.chunkSize = chunkSize
        received = Locked(SocketReceiveBuffer(initialCapacity: controlCapacity, payloadCapacity: chunkSize + (64 << 10)))
    }

    public var peer: String { socket.peer }

    /// True when bytes (or the end of the stream) are waiting, within `timeout` seconds (0: now).
    public func hasInput(timeout: TimeInterval?) throws -> Bool {
        if received.withLock({ $0.count }) > 0 { return true }
        do { return try socket.waitReadable(deadline: timeout.map { .after($0) }) } catch { throw PTPError(error) }
    }

    /// Runs `read` with the receive buffer held: one frame, read whole. `read` must not read this socket
    /// another way; it may write to it, close it, or take a lock of its own.
    public func frame<T>(_ read: (FrameReader) throws -> T) throws -> T {
        try withoutActuallyEscaping(read) { read in
            // Called on this thread only, inside the lock: no other isolation to keep.
            nonisolated(unsafe) let read = read
            return try received.withLock { buffer in
                nonisolated(unsafe) let result = try read(FrameReader(buffer: buffer, framed: self))
                return result
            }
        }
    }

    /// At most `limit` of the bytes received and not taken: what a peer sent that did not decode as a
    /// frame, for saying what it was instead (an HTTP server's status line).
    public func unreadBytes(limit: Int) -> [UInt8] {
        received.withLock { [UInt8]($0.bytes(min($0.count, limit))) }
    }

    /// Sends all of `bytes`, each wait for the peer to take more bounded by `timeout`.
    public func send(_ bytes: UnsafeRawBufferPointer) throws {
        do { try socket.send(bytes, .eachWait(timeout)) } catch { throw PTPError(error) }
    }

    public func send(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try send($0) }
    }
}

/// One frame being read out of a `FramedSocket`'s receive buffer (valid inside `frame` only).
public struct FrameReader {
    let buffer: SocketReceiveBuffer
    let framed: FramedSocket

    /// Waits (`firstByteTimeout`, nil: for ever) for the frame's first byte; false when the peer closed the
    /// stream cleanly between frames. `purpose` names what is awaited, for a timeout's words.
    public func begin(firstByteTimeout: TimeInterval?, purpose: @autoclosure () -> String?) throws -> Bool {
        do {
            return try buffer.fill(1, from: framed.socket, firstByteTimeout.map { .until(.after($0)) } ?? .forever)
        } catch where error.isTimeout {
            throw PTPError.timeout(
                .init(peer: framed.peer, seconds: firstByteTimeout, awaited: .firstByte(purpose: purpose())))
        } catch {
            throw PTPError(error)
        }
    }

    /// Holds at least `count` bytes, each wait bounded by the socket's timeout; a peer that ends the
    /// stream first is `connectionClosed(closedEarly(bytes held))`.
    public func fill(_ count: Int, closedEarly: (Int) -> PTPError.ConnectionEnd.CutShort) throws {
        let complete: Bool
        do { complete = try buffer.fill(count, from: framed.socket, .eachWait(framed.timeout)) } catch { throw PTPError(error) }
        if !complete { throw PTPError.connectionClosed(.cutShort(peer: framed.peer, closedEarly(buffer.count))) }
    }

    /// The first `count` bytes held (after `fill`), valid until the next fill.
    public func bytes(_ count: Int) -> UnsafeRawBufferPointer { buffer.bytes(count) }

    /// The u32 (little-endian) at `offset` of what is held.
    public func uint32(at offset: Int) -> UInt32 { buffer.uint32(at: offset) }

    /// Drops the first `count` bytes held (they were taken).
    public func consume(_ count: Int) { buffer.consume(count) }

    /// The first `count` bytes held, taken.
    public func take(_ count: Int) -> [UInt8] {
        let taken = [UInt8](buffer.bytes(count))
        buffer.consume(count)
        return taken
    }

    /// Streams `length` payload bytes to `consume` in chunks of at most the socket's `chunkSize` (one
    /// call for a payload that fits). A peer that ends the stream first is `closedEarly(bytes of the
    /// payload it sent)`. `consume` gets a view of the buffer, not a copy.
    public func payload(
        _ length: UInt64, closedEarly: (UInt64) -> PTPError.ConnectionEnd.CutShort,
        _ consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var remaining = length
        while remaining > 0 {
            let count = Int(min(remaining, UInt64(framed.chunkSize)))
            let before = length - remaining
            try fill(count) { got in closedEarly(before + UInt64(got)) }
            let chunk = buffer.bytes(count)
            buffer.consume(count)
            remaining -= UInt64(count)
            try consume(chunk)
        }
    }
}

extension DataSource {
    /// Fills all of `area` from this source, for a data frame about to be sent: a source that ends first
    /// is `dataSourceEnded` (`sent` bytes of the phase went before this frame, of `announced`).
    public func fill(_ area: UnsafeMutableRawBufferPointer, sent: UInt64, announced: UInt64) throws {
        var filled = 0
        while filled < area.count {
            let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: area[filled...]))
            guard n > 0 else { throw PTPError.dataSourceEnded(sent: sent + UInt64(filled), announced: announced) }
            filled += n
        }
    }
}
