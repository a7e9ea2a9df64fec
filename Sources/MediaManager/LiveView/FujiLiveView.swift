import Foundation
import POSIX
import PTP

/// Where a Fujifilm body's live-view packets come from: its live-view socket, connected by the transport
/// (`FujiLiveViewStream` on Wi-Fi). A packet is a frame's bytes after its length: the body's header, then
/// the JPEG.
public protocol FujiLiveViewChannel: Sendable {
    /// The next packet; nil when none began within `wait` seconds.
    func nextPacket(wait: TimeInterval) throws -> [UInt8]?
    /// Leaves the live view (closes the socket).
    func close()
}

/// Fujifilm live view on Wi-Fi, as libgphoto2 drives it: InitiateOpenCapture (0x101C, sent once per
/// connection: capture and the event socket use it too) opens the body's live-view port, the host connects
/// to it and the body streams a packet per frame. Stopping closes the socket; the capture mode stays open
/// (libgphoto2 sends TerminateOpenCapture only on USB, before a capture, and the event socket needs it).
final class FujiLiveView: LiveViewDialect {
    /// How long one ask waits for a packet to begin before saying "none yet" (`LiveView` asks again).
    static let packetWait: TimeInterval = 0.1
    /// Where in a packet the JPEG may start: after a header of at most this many bytes.
    static let maximumHeader = 256
    /// The most packets passed over in one ask for the newest (a body sending faster than they are read).
    static let maximumPassedOver = 64

    let dialect: FujiXDialect
    let open: @Sendable () throws -> any FujiLiveViewChannel
    private let channel = Locked<(any FujiLiveViewChannel)?>(nil)

    init(dialect: FujiXDialect, open: @escaping @Sendable () throws -> any FujiLiveViewChannel) {
        self.dialect = dialect
        self.open = open
    }

    func start(_ session: PTPSession) throws {
        try dialect.openCapture(session)
        let opened = try open()
        channel.withLock { $0 = opened }
    }

    func frame(_ session: PTPSession) throws -> [UInt8]? {
        guard let channel = channel.withLock({ $0 }) else { throw LiveViewError.malformed("live view was not started") }
        return try Self.newestPacket(channel, wait: Self.packetWait).map { try Self.jpeg(in: $0) }
    }

    /// The newest packet the body sent: the first within `wait`, or a later one already waiting behind it.
    /// The body streams whether or not the host keeps up; a host that reads more slowly than it sends (a
    /// terminal drawing, `--fps`) would otherwise show frames ever older, by as many as the sockets buffer.
    static func newestPacket(_ channel: any FujiLiveViewChannel, wait: TimeInterval) throws -> [UInt8]? {
        guard var newest = try channel.nextPacket(wait: wait) else { return nil }
        for _ in 0..<maximumPassedOver {
            guard let newer = try channel.nextPacket(wait: 0) else { break }
            newest = newer
        }
        return newest
    }

    func stop(_ session: PTPSession) {
        channel.withLock { channel in
            channel?.close()
            channel = nil
        }
    }

    /// The JPEG after the body's header: from the first start-of-image marker (FF D8 FF) in the first
    /// `maximumHeader` bytes on.
    static func jpeg(in packet: [UInt8]) throws(LiveViewError) -> [UInt8] {
        let searched = min(packet.count - 2, maximumHeader + 1)
        let isStart = { (at: Int) in packet[at] == 0xFF && packet[at + 1] == 0xD8 && packet[at + 2] == 0xFF }
        guard searched > 0, let start = (0..<searched).first(where: isStart)
        else { throw .malformed("no JPEG in the first \(maximumHeader) bytes of a \(packet.count)-byte Fuji frame") }
        return Array(packet[start...])
    }
}
