import Foundation
import POSIX
import PTP

/// The host's end of a Fujifilm body's live-view socket (55742 on a body; it listens only once
/// InitiateOpenCapture succeeded, as for the event port, and the host connects): the body sends a packet
/// per frame, as fast as it makes them, and the host sends nothing. A packet is a u32 length (the 4 bytes
/// of the length included), a header of the body's own (14 bytes on the bodies libgphoto2 knows), then the
/// frame's JPEG (FF D8 … FF D9). Every length is checked before a byte of it is read.
public final class FujiLiveViewStream: Sendable {
    /// The largest packet taken: a body's preview is 640x480 to 1280x720, well under 1 MiB as a JPEG.
    public static let maximumPacket = 8 << 20
    /// The packet's own header: the u32 length.
    static let lengthSize = 4

    let framed: FramedSocket

    init(socket: Socket, timeout: TimeInterval) {
        framed = FramedSocket(socket: socket, timeout: timeout, controlCapacity: 4096)
    }

    public var peer: String { framed.peer }

    /// Connects to `host:port`; a body may take a moment to listen after InitiateOpenCapture, so a refused
    /// connection is tried again twice, 100 ms apart (as libgphoto2 does).
    public static func connect(host: String, port: UInt16, timeouts: FujiTimeouts) throws -> FujiLiveViewStream {
        var attempts = 0
        while true {
            attempts += 1
            do {
                let socket = try Socket.connect(host: host, port: port, timeout: timeouts.connect)
                return FujiLiveViewStream(socket: socket, timeout: timeouts.read)
            } catch where error.isNobodyListening && attempts < 3 {
                POSIX.sleep(until: .after(0.1))
            } catch {
                throw PTPError(error)
            }
        }
    }

    /// The next packet without its length field (the body's header, then the JPEG); nil when none began
    /// within `wait` seconds. Once one began, each further wait is bounded by the read timeout. A length
    /// under 5 or over `limit` is `PTPError.malformed` (the rest is not read: the stream is then out of
    /// step, close it); the body closing the socket, before or in a packet, is `PTPError.connectionClosed`.
    public func nextPacket(wait: TimeInterval, limit: Int = maximumPacket) throws -> [UInt8]? {
        guard try framed.hasInput(timeout: wait) else { return nil }
        let peer = framed.peer
        return try framed.frame { frame in
            guard try frame.begin(firstByteTimeout: framed.timeout, purpose: "a live-view frame") else {
                throw PTPError.connectionClosed(.hungUp(peer: peer, moment: nil))
            }
            try frame.fill(Self.lengthSize) { got in .header(what: "a live-view frame's length", received: got) }
            let length = UInt64(frame.uint32(at: 0))
            let structure = "Fuji live-view frame"
            guard length > UInt64(Self.lengthSize) else {
                let defect = Malformation.Defect.shorterThanHeader(length: length, header: Self.lengthSize + 1)
                throw PTPError.malformed(Malformation(structure, defect, peer: peer))
            }
            guard length <= UInt64(limit) else {
                throw PTPError.malformed(Malformation(structure, .longerThanAllowed(length: length, limit: UInt64(limit)), peer: peer))
            }
            frame.consume(Self.lengthSize)
            var packet: [UInt8] = []
            packet.reserveCapacity(Int(length) - Self.lengthSize)
            let body = length - UInt64(Self.lengthSize)
            try frame.payload(body, closedEarly: { got in .body(what: "a live-view frame", received: Int(got), expected: Int(body)) }) {
                packet.append(contentsOf: $0)
            }
            return packet
        }
    }

    /// Shuts the socket down and releases it: the body sees the host leave its live view.
    public func close() {
        framed.socket.shutdown()
        framed.socket.close()
    }
}
