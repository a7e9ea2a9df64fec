import Foundation

/// How long PTP/IP waits before giving up, in seconds. A device that stops answering becomes a
/// `PTPError.timeout` naming the peer, never a hang.
public struct PTPIPTimeouts: Equatable, Sendable {
    /// Establishing a TCP connection.
    public var connect: TimeInterval
    /// Each wait for more bytes while a packet, a data phase or a response is awaited, and each wait for
    /// the peer to take more bytes when sending. A device that takes longer to answer a command fails it.
    public var read: TimeInterval
    /// Server side: how long a new connection may take to send its first packet (Init_Command_Request
    /// or Init_Event_Request) before it is dropped.
    public var handshake: TimeInterval

    public init(connect: TimeInterval = 5, read: TimeInterval = 30, handshake: TimeInterval = 5) {
        self.connect = connect
        self.read = read
        self.handshake = handshake
    }
}
