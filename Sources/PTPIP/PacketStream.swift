import Foundation
import POSIX
import PTP

/// What arrived on a PTP/IP socket: a whole control packet, or the head of a Data / End_Data packet
/// whose `payloadLength` bytes the reader must then take with `readPayload` (never buffered whole).
enum IncomingPacket {
    case control(PTPIPPacket)
    case dataHead(last: Bool, transactionID: UInt32, payloadLength: Int)
}

/// Reads and writes PTP/IP packets on one socket. One reader thread at a time; writes are serialized by
/// the owner (the command socket has one writer, the event socket is written under its connection's lock).
final class PacketStream: @unchecked Sendable {
    let socket: Socket
    /// Bounds every wait for more bytes once a packet has begun, and every write.
    let timeout: TimeInterval
    /// Where a streamed payload is read through; one per stream, reused.
    private var chunk: [UInt8]
    static let chunkSize = 1 << 20

    init(socket: Socket, timeout: TimeInterval) {
        self.socket = socket
        self.timeout = timeout
        self.chunk = []
    }

    var peer: String { socket.peer }

    // MARK: Reading

    /// The next packet. `firstByteTimeout` bounds the wait for it to begin (nil: wait for ever, for a
    /// socket that is idle between commands); once begun, `timeout` bounds each wait.
    /// Returns nil when the peer closed the stream cleanly between packets.
    func read(firstByteTimeout: TimeInterval?) throws -> IncomingPacket? {
        guard try socket.waitReadable(timeout: firstByteTimeout) else {
            throw PTPError.timeout("\(peer) sent nothing for \(formatSeconds(firstByteTimeout))")
        }
        var head = [UInt8](repeating: 0, count: PTPIPHeader.size)
        let got = try head.withUnsafeMutableBytes { try socket.receive(into: $0, timeout: timeout) }
        if got == 0 { return nil }
        guard got == head.count else {
            throw PTPError.connectionClosed("\(peer) closed the connection after \(got) bytes of a packet header")
        }
        let header = try PTPIPHeader(decoding: head)
        switch header.type {
        case .data, .endData:
            var prefix = [UInt8](repeating: 0, count: PTPIPHeader.dataPrefixSize)
            try receiveExactly(&prefix, header.type)
            var r = PTPReader(prefix)
            return .dataHead(
                last: header.type == .endData, transactionID: try r.uint32(),
                payloadLength: header.bodyLength - PTPIPHeader.dataPrefixSize)
        default:
            var body = [UInt8](repeating: 0, count: header.bodyLength)
            try receiveExactly(&body, header.type)
            return .control(try PTPIPPacket(header: header, body: body))
        }
    }

    /// A control packet, refusing a data packet (whose payload is then still unread: the caller should
    /// give up on the connection).
    func readControl(firstByteTimeout: TimeInterval?) throws -> PTPIPPacket? {
        switch try read(firstByteTimeout: firstByteTimeout) {
        case nil: return nil
        case .control(let packet): return packet
        case .dataHead(let last, _, _):
            throw PTPError.protocolViolation("unexpected \(last ? "End_Data" : "Data") packet from \(peer)")
        }
    }

    private func receiveExactly(_ bytes: inout [UInt8], _ type: PTPIPPacketType) throws {
        if bytes.isEmpty { return }
        let got = try bytes.withUnsafeMutableBytes { try socket.receive(into: $0, timeout: timeout) }
        guard got == bytes.count else {
            throw PTPError.connectionClosed(
                "\(peer) closed the connection in the middle of a \(type) packet (\(got) of \(bytes.count) bytes)")
        }
    }

    /// Streams `length` payload bytes from the socket to `consume`, in chunks of at most 1 MiB.
    func readPayload(_ length: Int, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: PacketStream.chunkSize) }
        var remaining = length
        while remaining > 0 {
            let count = min(remaining, chunk.count)
            let got = try chunk.withUnsafeMutableBytes {
                try socket.receive(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<count]), timeout: timeout)
            }
            guard got == count else {
                throw PTPError.connectionClosed(
                    "\(peer) closed the connection in the middle of a data packet (\(length - remaining + got) of \(length) bytes)")
            }
            try chunk.withUnsafeBytes { try consume(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            remaining -= count
        }
    }

    // MARK: Writing

    func write(_ packet: PTPIPPacket) throws {
        try socket.send(packet.encoded(), timeout: timeout)
    }

    /// Writes Start_Data, then `source` as Data packets of at most 1 MiB, the last one as End_Data (gphoto2
    /// counts bytes and stops reading at the announced length, so the End_Data must carry the last bytes).
    /// An empty data phase is Start_Data then an empty End_Data. `shouldStop` is asked between packets;
    /// when it says yes the data phase ends early with an empty End_Data and false is returned.
    func writeDataPhase(
        transactionID: UInt32, source: DataSource, shouldStop: () throws -> Bool = { false }
    ) throws -> Bool {
        let total = source.length
        try write(.startData(transactionID: transactionID, totalLength: total))
        let prefixSize = PTPIPHeader.size + PTPIPHeader.dataPrefixSize
        var packet = [UInt8](repeating: 0, count: prefixSize + Int(min(total, UInt64(PacketStream.chunkSize))))
        var sent: UInt64 = 0
        repeat {
            if sent > 0, try shouldStop() {
                try socket.send(PTPIPHeader.dataPrefix(last: true, transactionID: transactionID, payloadLength: 0), timeout: timeout)
                return false
            }
            let count = Int(min(total - sent, UInt64(PacketStream.chunkSize)))
            try packet.withUnsafeMutableBytes { buffer in
                var filled = 0
                while filled < count {
                    let n = try source.read(
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[(prefixSize + filled)..<(prefixSize + count)]))
                    guard n > 0 else {
                        throw PTPError.system("the data to send ended after \(sent + UInt64(filled)) of \(total) bytes")
                    }
                    filled += n
                }
            }
            sent += UInt64(count)
            let last = sent == total
            let prefix = PTPIPHeader.dataPrefix(last: last, transactionID: transactionID, payloadLength: count)
            packet.replaceSubrange(0..<prefixSize, with: prefix)
            try packet.withUnsafeBytes {
                try socket.send(UnsafeRawBufferPointer(rebasing: $0[0..<(prefixSize + count)]), timeout: timeout)
            }
        } while sent < total
        return true
    }
}
