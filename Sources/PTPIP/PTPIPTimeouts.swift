import Foundation
import POSIX

/// How long PTP/IP waits before giving up, in seconds, and the clock those seconds are read on. A device
/// that stops answering becomes a `PTPError.timeout` naming the peer, never a hang.
public struct PTPIPTimeouts: Equatable, Sendable {
    /// Establishing a TCP connection.
    public var connect: TimeInterval
    /// Each wait for more bytes while a packet, a data phase or a response is awaited, and each wait for
    /// the peer to take more bytes when sending. A device that takes longer to answer a command fails it.
    /// Also the wait for a Pong.
    public var read: TimeInterval
    /// Server side: how long a new connection may take to send its first packet (Init_Command_Request
    /// or Init_Event_Request) before it is dropped.
    public var handshake: TimeInterval
    /// The clock the waits that are not a socket's own (the Pong after a Ping) read: the monotonic clock,
    /// or a manual one in tests. Socket waits use POSIX's monotonic deadlines.
    public var clock: any WaitClock

    public init(
        connect: TimeInterval = 5, read: TimeInterval = 30, handshake: TimeInterval = 5,
        clock: any WaitClock = MonotonicClock()
    ) {
        self.connect = connect
        self.read = read
        self.handshake = handshake
        self.clock = clock
    }

    /// The same limits (the clock is not compared: it is how time is read, not a setting).
    public static func == (a: PTPIPTimeouts, b: PTPIPTimeouts) -> Bool {
        a.connect == b.connect && a.read == b.read && a.handshake == b.handshake
    }
}
