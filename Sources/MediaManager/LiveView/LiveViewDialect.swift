import PTP

/// How one family of cameras gives its live view (the preview the body's sensor sees): started once,
/// then asked for its newest frame as often as wanted, then stopped. Chosen by the camera's dialect
/// (`CameraDialect.liveView`); standard PTP has no live view.
public protocol LiveViewDialect: Sendable {
    /// Puts the body in live view towards the computer.
    func start(_ session: PTPSession) throws
    /// The newest frame as JPEG bytes; nil when the body has no new one yet (ask again a little later).
    func frame(_ session: PTPSession) throws -> [UInt8]?
    /// Best effort: hands the live view back to the body's own screen.
    func stop(_ session: PTPSession)
}

/// What went wrong with a live-view frame, as data (the shell words it).
public enum LiveViewError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No frame came within `seconds` of asking.
    case noFrame(seconds: Double)
    /// The frame's data was not what the dialect says (a block longer than the data, no JPEG in it).
    case malformed(String)

    public var description: String {
        switch self {
        case .noFrame(let seconds): "no live-view frame came in \(seconds) s"
        case .malformed(let why): "the live-view frame is malformed: \(why)"
        }
    }
}
