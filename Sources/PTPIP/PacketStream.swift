import Foundation
import POSIX
import PTP

/// What arrived on a PTP/IP socket: a whole control packet, or the head of a Data / End_Data packet
/// whose `payloadLength` bytes the reader must then take with `readPayload` (never buffered whole).
enum IncomingPacket {
    case control(PTPIPPacket)
    case dataHead(last: Bool, transactionID: UInt32, payloadLength: Int)

    /// The packet's type as the protocol names it (`Start_Data`, `End_Data`), for an error's facts.
    var kindName: String {
        switch self {
        case .control(let packet): "\(packet.type)"
        case .dataHead(let last, _, _): last ? "End_Data" : "Data"
        }
    }
}

/// Reads and writes PTP/IP packets on one socket (`FramedSocket`: what arrived is held and packets are
/// read out of it, not one recv per field). Writes are serialized by the owner (the command socket has one
/// writer, the event socket is written under its connection's lock).
final class PacketStream: Sendable {
    let framed: FramedSocket
    /// Largest piece of a payload handed to a reader at once (and of a Data packet sent).
    static let chunkSize = 1 << 20

    init(socket: Socket, timeout: TimeInterval) {
        framed = FramedSocket(
            socket: socket, timeout: timeout, controlCapacity: Int(PTPIPHeader.maxControlPacketLength), chunkSize: Self.chunkSize)
    }

    var socket: Socket { framed.socket }
    /// Bounds every wait for more bytes once a packet has begun, and every write.
    var timeout: TimeInterval { framed.timeout }
    var peer: String { framed.peer }

    // MARK: Reading

    /// True when a packet (or part of one) is waiting, within `timeout` seconds (0: without waiting).
    func hasInput(timeout: TimeInterval) throws -> Bool { try framed.hasInput(timeout: timeout) }

    /// The next packet. `firstByteTimeout` bounds the wait for it to begin (nil: wait for ever, for a
    /// socket that is idle between commands); once begun, `timeout` bounds each wait.
    /// Returns nil when the peer closed the stream cleanly between packets.
    func read(firstByteTimeout: TimeInterval?) throws -> IncomingPacket? {
        try framed.frame { frame in
            guard try frame.begin(firstByteTimeout: firstByteTimeout, purpose: nil) else { return nil }
            try frame.fill(PTPIPHeader.size) { got in .header(what: "a packet header", received: got) }
            let header = try PTPIPHeader(decoding: frame.bytes(PTPIPHeader.size))
            frame.consume(PTPIPHeader.size)
            switch header.type {
            case .data, .endData:
                try frame.fill(PTPIPHeader.dataPrefixSize) { got in
                    .packet(type: "\(header.type)", received: got, expected: PTPIPHeader.dataPrefixSize)
                }
                let transactionID = UInt32(littleEndian: frame.bytes(4).loadUnaligned(as: UInt32.self))
                frame.consume(PTPIPHeader.dataPrefixSize)
                return .dataHead(
                    last: header.type == .endData, transactionID: transactionID,
                    payloadLength: header.bodyLength - PTPIPHeader.dataPrefixSize)
            default:
                let length = header.bodyLength
                try frame.fill(length) { got in .packet(type: "\(header.type)", received: got, expected: length) }
                return .control(try PTPIPPacket(header: header, body: frame.take(length)))
            }
        }
    }

    /// At most `limit` of the bytes received and not taken: what a peer sent that did not decode as a packet,
    /// for saying what it was instead (an HTTP server's status line).
    func unreadBytes(limit: Int) -> [UInt8] { framed.unreadBytes(limit: limit) }

    /// A control packet, refusing a data packet (whose payload is then still unread: the caller should
    /// give up on the connection).
    func readControl(firstByteTimeout: TimeInterval?) throws -> PTPIPPacket? {
        switch try read(firstByteTimeout: firstByteTimeout) {
        case nil: return nil
        case .control(let packet): return packet
        case .dataHead(let last, _, _):
            throw PTPError.protocolViolation(
                ProtocolViolation(.unexpected(sent: last ? "End_Data" : "Data", expected: .controlPacket), peer: peer))
        }
    }

    /// Streams `length` payload bytes from the socket to `consume`, in chunks of at most 1 MiB (one chunk
    /// for a payload that fits: a small file is written with one call). `consume` runs with the receive
    /// buffer's lock held (the chunk is a view of the buffer, not a copy), so it must not read this
    /// stream; it may write to it, close the socket, or take any lock of its own.
    func readPayload(_ length: Int, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        try framed.frame { frame in
            try frame.payload(
                UInt64(length), closedEarly: { got in .packet(type: "data", received: Int(got), expected: length) }, consume)
        }
    }

    // MARK: Writing

    func write(_ packet: PTPIPPacket) throws { try framed.send(packet.encoded()) }

    /// Writes Start_Data, then `source` as Data packets of at most 1 MiB, the last one as End_Data (gphoto2
    /// counts bytes and stops reading at the announced length, so the End_Data must carry the last bytes).
    /// Start_Data goes out in one send with the first Data packet: a small file's data phase is one send, and
    /// the initiator wakes once for it. An empty data phase is Start_Data then an empty End_Data.
    /// `peerCancelled` is asked between packets; when it says yes the data phase ends early with an empty
    /// End_Data and false is returned.
    func writeDataPhase(
        transactionID: UInt32, source: DataSource, peerCancelled: () throws -> Bool = { false }
    ) throws -> Bool {
        let total = source.length
        let start = PTPIPPacket.startData(transactionID: transactionID, totalLength: total).encoded()
        let prefixSize = PTPIPHeader.size + PTPIPHeader.dataPrefixSize
        let head = start.count + prefixSize
        // Every byte sent is written first (Start_Data, a prefix, or what the source filled).
        var packet = [UInt8](unsafeUninitializedCapacity: head + Int(min(total, UInt64(PacketStream.chunkSize)))) {
            _, count in count = head + Int(min(total, UInt64(PacketStream.chunkSize)))
        }
        packet.replaceSubrange(0..<start.count, with: start)
        var sent: UInt64 = 0
        repeat {
            if sent > 0, try peerCancelled() {
                try socket.send(PTPIPHeader.dataPrefix(last: true, transactionID: transactionID, payloadLength: 0), timeout: timeout)
                return false
            }
            let count = Int(min(total - sent, UInt64(PacketStream.chunkSize)))
            try packet.withUnsafeMutableBytes { buffer in
                try source.fill(UnsafeMutableRawBufferPointer(rebasing: buffer[head..<(head + count)]), sent: sent, announced: total)
            }
            let first = sent == 0
            sent += UInt64(count)
            let prefix = PTPIPHeader.dataPrefix(last: sent == total, transactionID: transactionID, payloadLength: count)
            packet.replaceSubrange(start.count..<head, with: prefix)
            try packet.withUnsafeBytes {
                try socket.send(UnsafeRawBufferPointer(rebasing: $0[(first ? 0 : start.count)..<(head + count)]), timeout: timeout)
            }
        } while sent < total
        return true
    }
}
