import Foundation
import PTP

/// How long Fuji's Wi-Fi transport waits before giving up (`SocketTimeouts`: connect, each read, the
/// server's wait for an init request). A camera that stops answering becomes a `PTPError.timeout` naming
/// the peer and what was awaited, never a hang.
public typealias FujiTimeouts = SocketTimeouts

/// The ports a Fujifilm camera listens on in its Wi-Fi modes.
public enum FujiPorts {
    /// Commands: the handshake, then every transaction.
    public static let command: UInt16 = 55740
    /// Events: opened by the camera only once InitiateOpenCapture (0x101C) succeeded.
    public static let event: UInt16 = 55741
    /// Live-view frames (JPEG), opened with the event port (`FujiLiveViewStream`).
    public static let liveView: UInt16 = 55742
}
