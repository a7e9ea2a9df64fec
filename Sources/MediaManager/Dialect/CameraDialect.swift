import Failures
import Foundation
import POSIX
import PTP

/// How one family of cameras is spoken to on top of standard PTP: what to send once the session is open,
/// how changes are learned (pushed as PTP events, or polled with a vendor GetEvent), how a picture is
/// taken, where the settings are read and set, and what keeps the body awake. Chosen from DeviceInfo
/// (`CameraDialects.choose`); `Camera` calls it and knows no vendor. Implementations are thread-safe.
public protocol CameraDialect: AnyObject, Sendable {
    /// Which dialect this is (shown by `summary`, asked by tests).
    var kind: DialectKind { get }

    /// Requests sent once the session is open and DeviceInfo read (e.g. Canon's SetRemoteMode and
    /// SetEventMode); may read DeviceInfo again (`PTPSession.refreshDeviceInfo`).
    func didOpen(_ session: PTPSession) throws

    /// Best-effort requests before the session closes (handing the body back to its owner).
    func willClose(_ session: PTPSession)

    /// nil when the camera pushes its changes as PTP events; else how often to ask for them while
    /// something listens (`Camera.addEventHandler`, a capture, the catalog's catch-up).
    var pollInterval: TimeInterval? { get }

    /// One poll: the changes since the last, as standard PTP events (ObjectAdded, ObjectRemoved,
    /// DevicePropChanged, CaptureComplete, StoreAdded...), vendor records without a standard meaning kept
    /// as events of their own code. Never called for a dialect whose `pollInterval` is nil.
    func poll(_ session: PTPSession) throws -> [PTPEvent]

    /// True when this camera can take a picture on request (its DeviceInfo lists a way).
    func canCapture(_ session: PTPSession) -> Bool

    /// Fires the shutter. The new objects are reported as events afterwards (ObjectAdded, then
    /// CaptureComplete where the camera sends it), pushed or found by `poll`.
    func capture(_ session: PTPSession) throws

    /// The device properties this camera has (for `props`).
    func propertyCodes(_ session: PTPSession) -> [DevicePropertyCode]

    /// True when properties can be described (`describeProperty`); false: they can only be listed.
    func canDescribeProperties(_ session: PTPSession) -> Bool

    func describeProperty(_ code: DevicePropertyCode, _ session: PTPSession) throws -> DevicePropertyDescription

    func setProperty(_ code: DevicePropertyCode, to value: PTPValue, _ session: PTPSession) throws

    /// How often, while something listens, to tell the body the computer is still there; nil: never.
    var keepAliveInterval: TimeInterval? { get }

    /// One keep-alive request.
    func keepAlive(_ session: PTPSession) throws

    /// How this camera gives its live view; nil when it has none.
    func liveView(_ session: PTPSession) -> (any LiveViewDialect)?
}

extension CameraDialect {
    public func liveView(_ session: PTPSession) -> (any LiveViewDialect)? { nil }
}

/// Why a dialect's request did not do what was asked, as data (the shell words it).
public enum DialectError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Canon's RemoteRelease answered a result other than 0: 1 no focus, 3 mirror up, 7 card full,
    /// 8 card read-only.
    case releaseRefused(result: UInt32)
    /// The camera stayed busy (DeviceReady kept answering DeviceBusy) for `seconds`.
    case stayedBusy(seconds: Double)
    /// The property is not one the camera reported (EOS properties come from its event stream).
    case unknownProperty(DevicePropertyCode)

    public var description: String {
        switch self {
        case .releaseRefused(let result):
            switch result {
            case 1: "the camera did not release the shutter: no focus"
            case 3: "the camera did not release the shutter: mirror up"
            case 7: "the camera did not release the shutter: the card is full"
            case 8: "the camera did not release the shutter: the card is read-only"
            default: "the camera did not release the shutter (result \(result))"
            }
        case .stayedBusy(let seconds): "the camera stayed busy for \(Int(seconds)) s"
        case .unknownProperty(let code): "the camera did not report property 0x\(String(code.rawValue, radix: 16))"
        }
    }
}

extension DialectError: CategorizedError {
    public var category: FailureCategory {
        switch self {
        case .releaseRefused: .deviceFault
        case .stayedBusy: .busy
        case .unknownProperty: .notFound
        }
    }
}

/// Chooses a camera's dialect from what it says about itself.
public enum CameraDialects {
    /// Canon EOS when the camera speaks Canon's extension (or names Canon and speaks MTP) and offers the
    /// EOS event queue (GetEvent 0x9116); Nikon when it speaks Nikon's and offers its GetEvent (0x90C7);
    /// standard PTP for every other camera, and for those that lack what their vendor's dialect needs (a
    /// PowerShot without GetEvent, a Coolpix without Nikon's). A Fujifilm body's Wi-Fi dialect
    /// (`FujiXDialect`) is chosen by its connector (`fuji:`), not here: over USB the same body speaks
    /// standard PTP/MTP.
    public static func choose(for info: DeviceInfo) -> CameraDialect {
        switch info.vendor {
        case .canon where info.supports(.canonEOSGetEvent): return CanonEOSDialect()
        case .nikon where info.supports(.nikonGetEvent): return NikonDialect()
        default: return StandardDialect()
        }
    }
}
