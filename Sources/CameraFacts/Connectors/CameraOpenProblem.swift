/// What an open that failed says of the camera, for the words that add what to do: the facts of Connectors'
/// `CameraOpenError`, without the transports that error names.
public enum CameraOpenProblem: Equatable, Sendable {
    /// The host speaks Fujifilm's Wi-Fi protocol, not PTP/IP: `fujiURL` opens it.
    case speaksFuji(fujiURL: CameraURL)
    /// An HTTP server answered where a PTP/IP camera was looked for.
    case httpServer
    /// A Fujifilm camera answered Init_Fail: its Wi-Fi mode does not serve a computer.
    case fujifilmRefused
    /// A camera seen for the first time did not let this computer in: nobody confirmed on its screen.
    case notConfirmed
    /// A PTP/IP camera refused this computer's `guid` (32 hex digits) for `reason`.
    case refused(WiFiRefusal, guid: String)
    /// Nothing to add: the error's description says it all (nothing at the address, a USB failure).
    case other
}

/// An error of a camera open that says its facts as a `CameraOpenProblem`.
public protocol CameraOpenFailure: Error, CustomStringConvertible {
    var problem: CameraOpenProblem { get }
}
