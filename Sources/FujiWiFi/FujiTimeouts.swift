import Foundation

/// How long Fuji's Wi-Fi transport waits before giving up, in seconds. A camera that stops answering
/// becomes a `PTPError.timeout` naming the peer and what was awaited, never a hang.
public struct FujiTimeouts: Equatable, Sendable {
    /// Establishing a TCP connection (command socket, event socket).
    public var connect: TimeInterval
    /// Each wait for more bytes while an answer, a data phase or a response is awaited, and each wait for
    /// the peer to take more when sending.
    public var read: TimeInterval
    /// Server side: how long a new connection may take to send its init request before it is dropped.
    public var handshake: TimeInterval

    public init(connect: TimeInterval = 5, read: TimeInterval = 30, handshake: TimeInterval = 5) {
        self.connect = connect
        self.read = read
        self.handshake = handshake
    }
}

/// The ports a Fujifilm camera listens on in its Wi-Fi modes.
public enum FujiPorts {
    /// Commands: the handshake, then every transaction.
    public static let command: UInt16 = 55740
    /// Events: opened by the camera only once InitiateOpenCapture (0x101C) succeeded.
    public static let event: UInt16 = 55741
    /// Live view frames (JPEG), opened with the event port; not used here.
    public static let liveView: UInt16 = 55742
}
