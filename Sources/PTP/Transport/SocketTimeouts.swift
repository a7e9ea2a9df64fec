import Foundation

/// How long a transport over TCP waits before giving up, in seconds. A peer that stops answering becomes
/// a `PTPError.timeout` naming it and what was awaited, never a hang.
public struct SocketTimeouts: Equatable, Sendable {
    /// Establishing a TCP connection.
    public var connect: TimeInterval
    /// Each wait for more bytes while an answer, a data phase or a response is awaited, and each wait for
    /// the peer to take more when sending.
    public var read: TimeInterval
    /// Server side: how long a new connection may take to send its first request before it is dropped.
    public var handshake: TimeInterval

    public init(connect: TimeInterval = 5, read: TimeInterval = 30, handshake: TimeInterval = 5) {
        self.connect = connect
        self.read = read
        self.handshake = handshake
    }
}
