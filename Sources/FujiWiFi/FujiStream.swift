import Foundation
import POSIX
import PTP

/// Reads and writes Fuji containers on one socket (`FramedSocket`: bytes received as large as the socket
/// has them, a small file's data container and its response usually in one call, taken out field by
/// field; a data payload handed on in chunks of at most 1 MiB, never held whole). Writers are serialized
/// by the owner.
final class FujiStream: Sendable {
    let framed: FramedSocket
    /// Largest piece of a payload handed on at once, and of a data container's payload sent at once.
    static let chunkSize = 1 << 20

    init(socket: Socket, timeout: TimeInterval) {
        framed = FramedSocket(socket: socket, timeout: timeout, controlCapacity: 4096, chunkSize: Self.chunkSize)
    }

    var socket: Socket { framed.socket }
    var timeout: TimeInterval { framed.timeout }
    var peer: String { framed.peer }

    /// True when bytes (or the end of the stream) are waiting, within `timeout` seconds (0: now).
    func hasInput(timeout: TimeInterval) throws -> Bool { try framed.hasInput(timeout: timeout) }

    // MARK: Reading

    /// A handshake packet, whole (u32 length, checked to be 8 to 1024, then the rest); nil when the peer
    /// closed before sending anything.
    func readHandshakePacket(firstByteTimeout: TimeInterval?, what: String) throws -> [UInt8]? {
        try framed.frame { frame in
            guard try frame.begin(firstByteTimeout: firstByteTimeout, purpose: what) else { return nil }
            try frame.fill(4) { got in .header(what: what, received: got) }
            let length = try FujiHandshake.checkedLength(frame.uint32(at: 0), what: what)
            try frame.fill(length) { got in .body(what: what, received: got, expected: length) }
            return frame.take(length)
        }
    }

    /// True when the next packet is another Fuji init request (libgphoto2 sends its init twice; bodies
    /// answer both): it is then taken whole. False for anything else, left unread; nil when the peer closed
    /// the stream cleanly first. Waits for ever for the packet to begin.
    func takeRepeatedInitRequest() throws -> [UInt8]? {
        try framed.frame { frame in
            guard try frame.begin(firstByteTimeout: nil, purpose: "a command") else { return nil }
            try frame.fill(ContainerHeader.size) { got in .header(what: "a container header", received: got) }
            guard frame.uint32(at: 0) == UInt32(FujiHandshake.requestLength), frame.uint32(at: 4) == FujiHandshake.typeRequest,
                frame.uint32(at: 8) == FujiHandshake.magic
            else { return [] }
            try frame.fill(FujiHandshake.requestLength) { got in .header(what: "an init request", received: got) }
            return frame.take(FujiHandshake.requestLength)
        }
    }

    /// The next container's header; nil when the peer closed the stream cleanly between containers.
    /// `waitingFor` names what is awaited, for the timeout's words.
    func readHeader(firstByteTimeout: TimeInterval?, waitingFor: @autoclosure () -> String) throws -> ContainerHeader? {
        let awaited = waitingFor()
        return try framed.frame { frame in
            guard try frame.begin(firstByteTimeout: firstByteTimeout, purpose: awaited) else { return nil }
            try frame.fill(ContainerHeader.size) { got in .header(what: "a container header", received: got) }
            let header = try ContainerHeader(fuji: frame.bytes(ContainerHeader.size))
            frame.consume(ContainerHeader.size)
            return header
        }
    }

    /// The parameters of a command, response or event whose header was just read.
    func readParameters(_ header: ContainerHeader) throws -> [UInt32] {
        try framed.frame { frame in
            let count = Int(header.payloadLength)
            try frame.fill(count) { got in .container(kind: "\(header.kind)", received: UInt64(got), expected: UInt64(count)) }
            return ContainerCodec.parameters(frame.take(count)[...])
        }
    }

    /// Streams `length` payload bytes to `consume` in chunks of at most 1 MiB (one call for a payload
    /// that fits). `consume` runs with the receive buffer's lock held (the chunk is a view of it, not a
    /// copy), so it must not read this stream; it may write to it, close it, or take a lock of its own.
    func readPayload(_ length: UInt64, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        try framed.frame { frame in
            try frame.payload(length, closedEarly: { got in .container(kind: "data", received: got, expected: length) }, consume)
        }
    }

    // MARK: Writing

    func write(_ bytes: [UInt8]) throws { try framed.send(bytes) }

    /// Writes `source` as one data container: the header and the first chunk in one send (a responder such
    /// as vcam reads a small container with one recv), then the rest in chunks of 1 MiB. `peerCancelled`,
    /// asked between chunks, cannot end a container early (Fuji's framing has no way to), so the rest is
    /// then sent as zeros and false returned: the peer stays in step and the caller answers the transaction
    /// as cancelled.
    func writeData(code: UInt16, transactionID: UInt32, source: DataSource, peerCancelled: () throws -> Bool = { false }) throws -> Bool {
        let total = source.length
        let header = try FujiContainer.dataHeader(code: code, transactionID: transactionID, payloadLength: total)
        var buffer = [UInt8](repeating: 0, count: header.count + Int(min(total, UInt64(Self.chunkSize))))
        buffer.replaceSubrange(0..<header.count, with: header)
        var sent: UInt64 = 0
        var stopped = false
        repeat {
            let count = Int(min(total - sent, UInt64(Self.chunkSize)))
            let head = sent == 0 ? header.count : 0
            if sent > 0, !stopped, try peerCancelled() { stopped = true }
            try buffer.withUnsafeMutableBytes { raw in
                let area = UnsafeMutableRawBufferPointer(rebasing: raw[head..<(head + count)])
                if stopped {
                    area.initializeMemory(as: UInt8.self, repeating: 0)
                    return
                }
                try source.fill(area, sent: sent, announced: total)
            }
            try buffer.withUnsafeBytes { try framed.send(UnsafeRawBufferPointer(rebasing: $0[0..<(head + count)])) }
            sent += UInt64(count)
        } while sent < total
        return !stopped
    }
}
