/// One step of opening a Fuji connection, as it happens, for whoever records it (`--debug-ptp`): the
/// packets before the first container, and the event socket opened after InitiateOpenCapture.
public enum FujiHandshakeStep: Equatable, Sendable {
    /// The command socket is connected to this peer.
    case connected(peer: String)
    /// Our init request went out: its bytes (82), for the trace to show.
    case sentRequest([UInt8])
    /// The camera's answer arrived: its bytes, whole.
    case receivedAnswer([UInt8])
    /// The event socket was connected after InitiateOpenCapture, on this port, after `attempts` tries.
    case eventSocketConnected(port: UInt16, attempts: Int)
    /// The event socket could not be connected (the camera's mode has none); events come by polling.
    case eventSocketUnavailable(port: UInt16, reason: String)
}
