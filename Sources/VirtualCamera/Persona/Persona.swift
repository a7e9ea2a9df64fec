import Foundation
import PTP

/// Which camera the virtual camera pretends to be (`serve --persona NAME`): the generic PTP camera it has
/// always been, or a vendor's body whose dialect it speaks, so that our client's dialects are tested in CI
/// and gphoto2's implementation of the same dialect checks our responder.
public enum PersonaName: String, Sendable, CaseIterable {
    /// Standard PTP/MTP, vendor extension 0, manufacturer "mediashell" (byte-identical to before personas).
    case generic
    /// A Canon EOS body: Canon's extension, GetEvent's record queue instead of PTP events, RemoteRelease
    /// capture, EOS properties set with SetDevicePropValueEx.
    case canonEOS = "canon-eos"
    /// A Nikon body: Nikon's extension, GetEvent (0x90C7), DeviceReady, InitiateCaptureRecInSdram.
    case nikon
    /// A Fujifilm X body (X-T20) on Wi-Fi: `serve` speaks Fuji's framing (port 55740) for it, with the
    /// function-mode handshake the bodies require, the event list and remote capture.
    case fujiX = "fuji-x"

    /// One line per persona, for `serve --persona help`.
    public static var help: String {
        allCases.map { "  \($0.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \($0.summary)" }
            .joined(separator: "\n")
    }

    public var summary: String {
        switch self {
        case .generic: "standard PTP/MTP (the default)"
        case .canonEOS: "Canon EOS: GetEvent polling, RemoteRelease capture, EOS properties"
        case .nikon: "Nikon: GetEvent polling, DeviceReady, capture onto the card or into SDRAM"
        case .fujiX: "Fujifilm X-T20 on Wi-Fi: Fuji's framing on 55740, the function-mode handshake, remote capture"
        }
    }
}

/// What a persona changes: who the camera says it is, what its DeviceInfo lists, and how its vendor
/// operations are answered (`PersonaBehaviour`). The generic persona changes nothing.
public struct Persona: Sendable {
    public let name: PersonaName
    /// Replace the identity's manufacturer, model and version (the serial number stays the card's).
    public var manufacturer: String?
    public var model: String?
    public var version: String?
    public var vendorExtensionID: UInt32 = 0
    public var vendorExtensionVersion: UInt16 = 0
    public var vendorExtensionDescription: String = ""
    /// Vendor operations listed after the standard ones (those that take a picture only when the card can).
    public var vendorOperations: [OperationCode] = []
    /// The vendor operations that take a picture: listed only when the card can capture.
    public var captureOperations: Set<OperationCode> = []
    /// Standard operations this body does not list.
    public var withoutOperations: Set<OperationCode> = []
    /// The events DeviceInfo lists; nil: the generic camera's.
    public var events: [EventCode]?
    /// The properties DeviceInfo lists; nil: the generic camera's.
    public var properties: [DevicePropertyCode]?
    /// The USB vendor and product IDs of the body copied, as libgphoto2's camera list has them, for
    /// `serve --usb-gadget`; nil: the Linux Foundation's PTP gadget (1d6b:0100).
    public var usbIDs: (vendor: UInt16, product: UInt16)?
    /// How the body names the pictures it takes (`IMG_0007.JPG`).
    public var shotNaming = ShotNaming.generic
    /// Answers the vendor operations, shared by every session of one camera; nil: none.
    let behaviour: (any PersonaBehaviour)?

    init(name: PersonaName, behaviour: (any PersonaBehaviour)? = nil) {
        self.name = name
        self.behaviour = behaviour
    }

    /// The generic camera.
    public static var generic: Persona { Persona(name: .generic) }

    /// A fresh persona of that name (its vendor state, such as a Canon's settings, is its own).
    public static func named(_ name: PersonaName) -> Persona {
        switch name {
        case .generic: .generic
        case .canonEOS: CanonEOSPersona.make()
        case .nikon: NikonPersona.make()
        case .fujiX: FujiXPersona.make()
        }
    }

    /// A fresh persona of that name as a body on a USB cable (`serve --usb-gadget`): the `fuji-x` one opens its
    /// card without the Wi-Fi bodies' function-mode handshake; the others are as over PTP/IP.
    public static func namedOverUSB(_ name: PersonaName) -> Persona {
        name == .fujiX ? FujiXPersona.make(overUSB: true) : named(name)
    }

    /// The `fuji-x` persona in another Wi-Fi state (0xDF00: 6 remote access, 2 full access without remote
    /// mode, 1 multiple transfer, 3 PC AutoSave), answering "waiting for access" (0) to its first
    /// `waitingReads` reads of the state: for tests of what a client does with each.
    public static func fujiX(cameraState: UInt16, waitingReads: Int = 0) -> Persona {
        FujiXPersona.make(cameraState: cameraState, waitingReads: waitingReads)
    }

    /// `identity` as this persona presents it.
    func apply(to identity: VirtualCamera.Identity) -> VirtualCamera.Identity {
        var result = identity
        if let manufacturer { result.manufacturer = manufacturer }
        if let model { result.model = model }
        if let version { result.version = version }
        return result
    }
}

/// A persona's vendor behaviour, shared by every session of one virtual camera (its settings live here).
protocol PersonaBehaviour: AnyObject, Sendable {
    /// The state of one session (one initiator's connection).
    func makeSession(for camera: VirtualCamera) -> any PersonaSession
}

/// One session's vendor state. Called on the session's thread, and `cardEvent` on the card's: thread-safe.
protocol PersonaSession: AnyObject, Sendable {
    /// The answer to `command` (with the data the initiator sent, for a command that has a data phase
    /// towards the camera); nil: the generic camera answers it.
    func answer(_ command: PTPCommand, data: [UInt8]?, in session: ResponderSession) -> ResponderSession.Answer?
    /// A change on the card (or in the settings): true to send it as a PTP event as the generic camera does;
    /// false when this persona reports it its own way (queued for its GetEvent).
    func cardEvent(_ event: PTPEvent) -> Bool
}
