import PTP
import POSIX

/// A Fujifilm X body in its Wi-Fi "wireless communication" mode, as petabyt's vcam re-implements the
/// bodies and libgphoto2's client expects them (served over Fuji's framing by `serve --persona fuji-x`,
/// the FujiWiFi server): FUJIFILM X-T20, vendor extension Fujifilm, a body that offers remote access.
/// The host must do the function-mode handshake first: until it set the function mode (0xDF01), the
/// card is not offered (AccessDenied), and capture needs the remote mode (5). Changes are reported in the
/// event list property (0xD212) until the host opened capture mode (InitiateOpenCapture), and on the
/// event socket after.
enum FujiXPersona {
    static let cameraState = DevicePropertyCode(0xDF00)
    static let functionMode = DevicePropertyCode(0xDF01)
    static let imageExploreVersion = DevicePropertyCode(0xDF21)
    static let getObjectVersion = DevicePropertyCode(0xDF22)
    static let remoteVersion = DevicePropertyCode(0xDF24)
    static let remoteGetObjectVersion = DevicePropertyCode(0xDF25)
    static let eventsList = DevicePropertyCode(0xD212)
    static let objectCount = DevicePropertyCode(0xD222)
    static let enableCorrectFileSize = DevicePropertyCode(0xD227)
    /// libgphoto2's remote capture: PriorityMode, a lens property it sets, the shutter control (0x0200
    /// focus, 0x0304 shoot, 0x0004 release) before each InitiateCapture, and the focus status it polls.
    static let priorityMode = DevicePropertyCode(0xD207)
    static let shutterControl = DevicePropertyCode(0xD208)
    static let focusStatus = DevicePropertyCode(0xD209)
    static let lensZoomCapability = DevicePropertyCode(0xD38C)

    /// The X-T20's versions, as vcam's persona reports them.
    static let remoteVersionValue: UInt32 = 0x0002_0004
    static let imageExploreVersionValue: UInt32 = 3
    /// "Remote access": browsing and remote control.
    static let remoteAccessState: UInt16 = 6

    /// - Parameters:
    ///   - cameraState: what the body offers (0xDF00): 6 remote access (an X-T20), 2 full access (an
    ///     X-A2: no remote mode, no remote version), 1 multiple transfer, 3 PC AutoSave.
    ///   - waitingReads: how many reads of the state answer 0 (waiting for the user to allow the host) first.
    ///   - overUSB: the body on a USB cable (`serve --usb-gadget`): its card is open from the start, with no
    ///     function mode to set first (that handshake is the Wi-Fi bodies').
    static func make(cameraState: UInt16 = remoteAccessState, waitingReads: Int = 0, overUSB: Bool = false) -> Persona {
        var persona = Persona(
            name: .fujiX, behaviour: Behaviour(cameraState: cameraState, waitingReads: waitingReads, overUSB: overUSB))
        persona.manufacturer = "FUJIFILM"
        persona.model = "X-T20"
        // DCIM/100_FUJI/DSCF0001.JPG (movies too), _DSF0001.JPG in Adobe RGB, on one counter.
        persona.shotNaming = ShotNaming(prefix: "DSCF", sharedWith: ["_DSF"], folderSuffix: "_FUJI")
        persona.version = "1.30"
        persona.vendorExtensionID = VendorExtensionID.fuji.rawValue
        persona.vendorExtensionVersion = 100
        persona.vendorExtensionDescription = "fujifilm.co.jp: 1.0; "
        persona.vendorOperations = [.initiateOpenCapture, .terminateOpenCapture]
        persona.captureOperations = [.initiateOpenCapture, .terminateOpenCapture]
        return persona
    }

    final class Behaviour: PersonaBehaviour {
        let cameraState: UInt16
        let waitingReads: Int
        let overUSB: Bool
        init(cameraState: UInt16, waitingReads: Int, overUSB: Bool) {
            self.cameraState = cameraState
            self.waitingReads = waitingReads
            self.overUSB = overUSB
        }

        func makeSession(for camera: VirtualCamera) -> any PersonaSession {
            Session(
                objectCount: UInt32(camera.card.objectCount), cameraState: cameraState, waitingReads: waitingReads,
                gatesTheCard: !overUSB)
        }
    }

    /// The operations a body refuses before the function mode is set.
    static let gated: Set<OperationCode> = [
        .getStorageIDs, .getStorageInfo, .getNumObjects, .getObjectHandles, .getObjectInfo, .getObject, .getThumb,
        .deleteObject, .getPartialObject, .getPartialObject64, .getObjectPropList, .getObjectPropValue, .initiateCapture,
        .initiateOpenCapture,
    ]

    final class Session: PersonaSession {
        private struct State {
            var mode: UInt16 = 0
            var remoteVersion: UInt32 = FujiXPersona.remoteVersionValue
            var correctSizes: UInt16 = 0
            /// What changed since the host last read the event list: (code, value).
            var queued: [(UInt16, UInt32)] = []
            var captureOpen = false
            /// The shutter control last set (0xD208): InitiateCapture focuses (0x0200) or releases (0x0004)
            /// without a picture; 0 (never set, as by our client) or 0x0304 takes one.
            var shutterControl: UInt16 = 0
            /// Reads of the state still to answer "waiting for access".
            var waitingReads: Int
        }

        private let state: Locked<State>
        private let cameraState: UInt16
        /// The card's operations wait for a function mode (on Wi-Fi; over USB they do not).
        private let gatesTheCard: Bool
        /// A body with a remote mode reports a remote version; one without answers it empty.
        private var hasRemote: Bool { cameraState == FujiXPersona.remoteAccessState }

        init(objectCount: UInt32, cameraState: UInt16, waitingReads: Int, gatesTheCard: Bool) {
            self.cameraState = cameraState
            self.gatesTheCard = gatesTheCard
            // A body announces its state and what it offers when a host connects.
            let announced = waitingReads > 0 ? 0 : UInt32(cameraState)
            state = Locked(State(
                queued: [(FujiXPersona.cameraState.rawValue, announced), (FujiXPersona.objectCount.rawValue, objectCount)],
                waitingReads: waitingReads))
        }

        /// The state as the body reports it now (0 while it waits for the user).
        private func currentState() -> UInt16 {
            state.withLock { state in
                guard state.waitingReads > 0 else { return cameraState }
                state.waitingReads -= 1
                if state.waitingReads == 0 { state.queued.append((FujiXPersona.cameraState.rawValue, UInt32(cameraState))) }
                return 0
            }
        }

        /// The function modes this body takes.
        private var acceptedModes: Set<UInt32> {
            switch cameraState {
            case FujiXPersona.remoteAccessState: [2, 5, 11]
            case 2: [2]
            case 1: [1]
            default: []
            }
        }

        func answer(_ command: PTPCommand, data: [UInt8]?, in session: ResponderSession) -> ResponderSession.Answer? {
            let mode = state.withLock { $0.mode }
            let property = DevicePropertyCode(UInt16(truncatingIfNeeded: command.parameter(0)))
            switch command.code {
            case .getDevicePropValue:
                return propertyValue(property, session: session) ?? unknown(property)
            case .getDevicePropDesc:
                return unknown(property)
            case .setDevicePropValue:
                guard let data else { return nil }
                return setProperty(DevicePropertyCode(UInt16(truncatingIfNeeded: command.parameter(0))), data)
            case .initiateOpenCapture:
                guard mode == 5 else { return .fail(.accessDenied) }
                state.withLock { $0.captureOpen = true }
                return ResponderSession.Answer()
            case .terminateOpenCapture:
                state.withLock { $0.captureOpen = false }
                return ResponderSession.Answer()
            case .initiateCapture where mode != 5:
                return .fail(.accessDenied)
            case .initiateCapture:
                let control = state.withLock { $0.shutterControl }
                return control == 0x0200 || control == 0x0004 ? ResponderSession.Answer() : nil
            case let code where gatesTheCard && FujiXPersona.gated.contains(code) && mode == 0:
                return .fail(.accessDenied)
            default:
                return nil
            }
        }

        /// A property this body does not have: an empty data phase, then DevicePropNotSupported. libgphoto2's
        /// Fuji client reads a data container before every response of an operation that may return data,
        /// and would otherwise wait 2.5 s for a second response (it asks for a dozen Fuji properties at open).
        private func unknown(_ property: DevicePropertyCode) -> ResponderSession.Answer? {
            if DeviceProperties.supported.contains(property) { return nil }
            return ResponderSession.Answer(code: .devicePropNotSupported, data: BufferSource([]))
        }

        private func propertyValue(_ code: DevicePropertyCode, session: ResponderSession) -> ResponderSession.Answer? {
            func u16(_ v: UInt16) -> ResponderSession.Answer { .data([UInt8(v & 0xFF), UInt8(v >> 8)]) }
            func u32(_ v: UInt32) -> ResponderSession.Answer { .data((0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }) }
            switch code {
            case FujiXPersona.cameraState: return u16(currentState())
            case FujiXPersona.functionMode: return u16(state.withLock { $0.mode })
            case FujiXPersona.imageExploreVersion: return u32(FujiXPersona.imageExploreVersionValue)
            case FujiXPersona.getObjectVersion: return u32(4)
            case FujiXPersona.remoteVersion: return hasRemote ? u32(state.withLock { $0.remoteVersion }) : .data([])
            case FujiXPersona.remoteGetObjectVersion: return u32(2)
            case FujiXPersona.objectCount: return u32(UInt32(session.card.objectCount))
            case FujiXPersona.enableCorrectFileSize: return u16(state.withLock { $0.correctSizes })
            case FujiXPersona.focusStatus: return u16(2)  // focused
            case FujiXPersona.shutterControl: return u16(state.withLock { $0.shutterControl })
            case FujiXPersona.eventsList:
                _ = state.withLock { $0.waitingReads } > 0 ? currentState() : 0
                let entries = state.withLock { state -> [(UInt16, UInt32)] in
                    defer { state.queued.removeAll() }
                    return state.queued
                }
                var w = PTPWriter(capacity: 2 + 6 * entries.count)
                w.uint16(UInt16(entries.count))
                for (code, value) in entries {
                    w.uint16(code)
                    w.uint32(value)
                }
                return .data(w.bytes)
            default:
                return nil
            }
        }

        /// The handshake's properties, with the sizes bodies check (a u16 mode, u32 versions).
        private func setProperty(_ code: DevicePropertyCode, _ data: [UInt8]) -> ResponderSession.Answer? {
            func value() -> UInt32 { data.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) } }
            switch code {
            case FujiXPersona.functionMode:
                // View-multiple, view-all, remote, remote image view.
                guard data.count == 2, acceptedModes.contains(value()), state.withLock({ $0.waitingReads }) == 0 else {
                    return .fail(.invalidDevicePropValue)
                }
                state.withLock {
                    $0.mode = UInt16(value())
                    $0.queued.append((FujiXPersona.functionMode.rawValue, value()))
                }
                return ResponderSession.Answer()
            case FujiXPersona.remoteVersion:
                guard hasRemote, data.count == 4 else { return .fail(.devicePropNotSupported) }
                state.withLock { $0.remoteVersion = value() }
                return ResponderSession.Answer()
            case FujiXPersona.imageExploreVersion, FujiXPersona.getObjectVersion, FujiXPersona.remoteGetObjectVersion:
                guard data.count == 4 else { return .fail(.invalidDevicePropValue) }
                return ResponderSession.Answer()
            case FujiXPersona.enableCorrectFileSize:
                guard data.count == 2, value() <= 1 else { return .fail(.invalidDevicePropValue) }
                state.withLock { $0.correctSizes = UInt16(value()) }
                return ResponderSession.Answer()
            case FujiXPersona.shutterControl:
                guard data.count == 2 else { return .fail(.invalidDevicePropValue) }
                state.withLock { $0.shutterControl = UInt16(value()) }
                return ResponderSession.Answer()
            case FujiXPersona.priorityMode, FujiXPersona.lensZoomCapability:
                guard data.count == 2 else { return .fail(.invalidDevicePropValue) }
                return ResponderSession.Answer()
            case FujiXPersona.cameraState, FujiXPersona.objectCount, FujiXPersona.eventsList:
                return .fail(.accessDenied)
            default:
                return nil
            }
        }

        /// Before capture mode is open the body keeps changes for the event list; after, they go on the
        /// event socket as PTP events.
        func cardEvent(_ event: PTPEvent) -> Bool {
            state.withLock { state in
                if state.captureOpen { return true }
                let value: UInt32 = event.code == .devicePropChanged ? 0 : event.parameter(0)
                let code = event.code == .devicePropChanged ? UInt16(truncatingIfNeeded: event.parameter(0)) : event.code.rawValue
                if state.queued.count < 256 { state.queued.append((code, value)) }
                return false
            }
        }
    }
}
