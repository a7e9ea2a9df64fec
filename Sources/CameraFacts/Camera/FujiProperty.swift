import Failures
import PTPFacts

/// The device properties a Fujifilm X body uses for its Wi-Fi modes. Names and meanings from libgphoto2
/// (`InitSequence` 0xDF01, `AppVersion` 0xDF24) and petabyt's vcam and fudge, which re-implement the
/// bodies and Fuji's app.
public enum FujiProperty {
    /// What the body offers this connection (`FujiCameraState`): read first, never set by a browser.
    public static let cameraState = DevicePropertyCode(0xDF00)
    /// The function mode the host asks for (`FujiFunctionMode`), a u16; libgphoto2's InitSequence.
    public static let functionMode = DevicePropertyCode(0xDF01)
    /// Image browsing protocol version; Fuji's app sets it back to what the body said.
    public static let imageExploreVersion = DevicePropertyCode(0xDF21)
    /// GetObjectInfo/GetObject behaviour version.
    public static let getObjectVersion = DevicePropertyCode(0xDF22)
    /// Remote (tethering) protocol version, a u32; empty on bodies without remote mode. libgphoto2's
    /// AppVersion: it reads it and sets the same value back.
    public static let remoteVersion = DevicePropertyCode(0xDF24)
    /// The changes since the last read: u16 count, then count x (u16 code, u32 value), unaligned.
    public static let eventsList = DevicePropertyCode(0xD212)
    /// How many objects the body offers.
    public static let objectCount = DevicePropertyCode(0xD222)
    /// 1: ObjectInfo carries the real file size (0, the default on Wi-Fi, caps it at about 100 KB).
    public static let enableCorrectFileSize = DevicePropertyCode(0xD227)
}

/// What a Fujifilm body offers the connection (`FujiProperty.cameraState`), as it says it.
public enum FujiCameraState: Equatable, Sendable {
    /// It waits for the user to allow this host on its screen.
    case waitingForAccess
    /// The user picked images on the body to send ("send multiple images"): only those are offered.
    case multipleTransfer
    /// Browsing, downloading and standard PTP (older bodies; no remote control).
    case fullAccess
    /// PC AutoSave: the body pushes new pictures to a registered computer; it does not take a browser.
    case pcAutoSave
    /// Everything of full access, and remote control (capture, live view).
    case remoteAccess
    case other(UInt32)

    public init(_ value: UInt32) {
        switch value {
        case 0: self = .waitingForAccess
        case 1: self = .multipleTransfer
        case 2: self = .fullAccess
        case 3: self = .pcAutoSave
        case 6: self = .remoteAccess
        default: self = .other(value)
        }
    }

    /// What the state offers, in words.
    public var name: String {
        switch self {
        case .waitingForAccess: "waiting for access"
        case .multipleTransfer: "sending the images picked on the camera"
        case .fullAccess: "browsing, no remote control"
        case .pcAutoSave: "PC AutoSave"
        case .remoteAccess: "browsing and remote control"
        case .other(let value): "state \(value)"
        }
    }

    public var rawValue: UInt32 {
        switch self {
        case .waitingForAccess: 0
        case .multipleTransfer: 1
        case .fullAccess: 2
        case .pcAutoSave: 3
        case .remoteAccess: 6
        case .other(let value): value
        }
    }
}

/// The function mode a host asks for (`FujiProperty.functionMode`).
public enum FujiFunctionMode: UInt16, Sendable {
    /// Take the images the user picked on the body.
    case viewMultiple = 1
    /// Browse every image, with standard PTP.
    case viewAllImages = 2
    /// Remote mode: everything of browsing, and capture.
    case remote = 5
}

/// Why a Fujifilm body in its present Wi-Fi mode does not serve what was asked, as facts (the shell
/// says which mode to choose on the camera).
public enum FujiModeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The body kept waiting for the user to allow this host for this long.
    case waitingForAccess(seconds: Double)
    /// The body is in PC AutoSave, which pushes to a registered computer and takes no browser.
    case pcAutoSave
    /// The body reported a state this program does not know.
    case unknownState(UInt32)
    /// Remote capture needs the body's remote mode; this one offers `state`.
    case noRemoteCapture(state: FujiCameraState)

    public var description: String {
        switch self {
        case .waitingForAccess(let seconds):
            "the camera waited for this computer to be allowed on its screen (\(Int(seconds)) s)"
        case .pcAutoSave: "the camera is in PC AutoSave, which sends pictures to a registered computer and takes no browser"
        case .unknownState(let value): "the camera reports an unknown Wi-Fi state (\(value))"
        case .noRemoteCapture(let state):
            "the camera's Wi-Fi mode (\(state.name)) offers no remote capture"
        }
    }
}

extension FujiModeError: CategorizedError {
    public var category: FailureCategory {
        switch self {
        case .waitingForAccess: .timedOut
        case .pcAutoSave, .unknownState: .invalidRequest
        case .noRemoteCapture: .notSupported
        }
    }
}
