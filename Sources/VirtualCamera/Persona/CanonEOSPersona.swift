import Foundation
import POSIX
import PTP

/// The `canon-eos` persona: a Canon EOS body as libgphoto2 and our client speak to it. DeviceInfo says
/// Canon (vendor extension 11, "Canon Inc.") and lists the EOS operations; the body sends no PTP events,
/// it queues change records for GetEvent (0x9116) once SetEventMode(1) asked for them; the first GetEvent
/// after that carries every property and its allowed values; RemoteReleaseOn(2 or 3) or RemoteRelease
/// takes the picture; SetDevicePropValueEx sets the EOS properties. Listing, reading and deleting stay the
/// standard operations (no GetObjectInfoEx: libgphoto2 then lists the standard way).
enum CanonEOSPersona {
    static func make() -> Persona {
        var persona = Persona(name: .canonEOS, behaviour: CanonEOSBehaviour())
        persona.manufacturer = "Canon Inc."
        persona.model = "Canon EOS 80D"
        // DCIM/100CANON/IMG_0001.JPG; movies (MVI_) and Adobe RGB stills (_MG_) count on the same counter.
        persona.shotNaming = ShotNaming(prefix: "IMG_", sharedWith: ["MVI_", "_MG_"], folderSuffix: "CANON")
        persona.version = "3-1.0.2"
        persona.vendorExtensionID = VendorExtensionID.canon.rawValue
        persona.vendorExtensionVersion = 100
        persona.vendorOperations = [
            .canonEOSGetStorageIDs, .canonEOSGetStorageInfo, .canonEOSRemoteRelease, .canonEOSSetDevicePropValueEx,
            .canonEOSSetRemoteMode, .canonEOSSetEventMode, .canonEOSGetEvent, .canonEOSKeepDeviceOn,
            .canonEOSRequestDevicePropValue, .canonEOSRemoteReleaseOn, .canonEOSRemoteReleaseOff,
            .canonEOSGetViewFinderData,
        ]
        persona.captureOperations = [.canonEOSRemoteRelease, .canonEOSRemoteReleaseOn, .canonEOSRemoteReleaseOff]
        // An EOS body takes pictures its own way and lists folders one GetObjectHandles at a time; of the
        // standard property operations it has GetDevicePropDesc and SetDevicePropValue (the 80D's DeviceInfo).
        persona.withoutOperations = [
            .initiateCapture, .getObjectPropList, .getObjectPropsSupported, .getObjectPropDesc, .getObjectPropValue,
            .getDevicePropValue,
        ]
        persona.events = [0xC181, 0xC182, 0xC186, 0xC187, 0xC189, 0xC18A, 0xC18B].map(EventCode.init(_:))
        // Its EOS properties come in GetEvent records; DeviceInfo lists what the 80D lists (libgphoto2's
        // camlibs/ptp2/cameras/canon-80d.txt). An empty list is no EOS body's, and makes libgphoto2's
        // single-setting lookup answer OK with no setting: gphoto2 then fails on a full path
        // (`--get-config /main/imgsettings/iso`: Bad parameters) or crashes (`--set-config`, in gp_widget_free).
        persona.properties = CanonEOSStandardProperties.listed
        return persona
    }
}

/// The body's settings, shared by its sessions: the EOS properties with their allowed values.
final class CanonEOSBehaviour: PersonaBehaviour {
    struct Setting {
        var value: PTPValue
        var allowed: [UInt32]
        var writable: Bool
    }

    /// The settable and read-only properties a session reports, with Canon's codes for their values
    /// (libgphoto2's tables: 0x30 is f/5.6, 0x70 1/125, 0x48 ISO 100). Focus is manual (3), as on a lens
    /// switched to MF: libgphoto2 then waits no focus round before its full press.
    let settings = Locked<[DevicePropertyCode: Setting]>([
        .canonEOSAperture: Setting(value: .uint16(0x30), allowed: [0x20, 0x28, 0x30, 0x38, 0x40, 0x48], writable: true),
        .canonEOSShutterSpeed: Setting(value: .uint16(0x70), allowed: [0x60, 0x68, 0x70, 0x78, 0x80, 0x88], writable: true),
        .canonEOSISOSpeed: Setting(value: .uint16(0x48), allowed: [0x00, 0x48, 0x50, 0x58, 0x60, 0x68, 0x70], writable: true),
        .canonEOSExpCompensation: Setting(value: .uint8(0), allowed: [0xF8, 0xFB, 0xFD, 0x00, 0x03, 0x05, 0x08], writable: true),
        .canonEOSAutoExposureMode: Setting(value: .uint16(3), allowed: [], writable: false),
        .canonEOSFocusMode: Setting(value: .uint16(3), allowed: [], writable: false),
        .canonEOSWhiteBalance: Setting(value: .uint8(0), allowed: [0, 1, 2, 3, 4, 5, 8], writable: true),
        .canonEOSAvailableShots: Setting(value: .uint32(999), allowed: [], writable: false),
        .canonEOSEVFOutputDevice: Setting(value: .uint16(1), allowed: [], writable: true),
        .canonEOSOwner: Setting(value: .string(""), allowed: [], writable: true),
        .canonEOSArtist: Setting(value: .string(""), allowed: [], writable: true),
        .canonEOSCopyright: Setting(value: .string(""), allowed: [], writable: true),
    ])

    /// Its live view, served while EVFOutputDevice has the PC bit (2).
    let liveView = LiveViewFrames()

    func makeSession(for camera: VirtualCamera) -> any PersonaSession { CanonEOSSession(camera: camera, behaviour: self) }

    /// True while the live view goes to the computer (EVFOutputDevice has bit 1, PC).
    var liveViewToPC: Bool {
        settings.withLock { ($0[.canonEOSEVFOutputDevice]?.value.unsignedValue ?? 0) & 2 != 0 }
    }

    /// The battery as EOS reports it: 2 full, 4 three quarters, 1 half, 5 a quarter, 0 low.
    static func batteryCode(_ percent: UInt8) -> UInt16 {
        switch percent {
        case 88...: 2
        case 63...: 4
        case 38...: 1
        case 13...: 5
        default: 0
        }
    }

    /// Every property's record, as the first GetEvent after SetEventMode carries them: the values, then
    /// the allowed lists.
    func allRecords(camera: VirtualCamera) -> [CanonEOSEvent] {
        let table = settings.withLock { $0 }
        var records: [CanonEOSEvent] = table.keys.sorted { $0.rawValue < $1.rawValue }.map { code in
            .propertyValue(code, CanonEOSBehaviour.pack(table[code]!.value))
        }
        records += derivedRecords(camera: camera)
        records += table.keys.sorted { $0.rawValue < $1.rawValue }.compactMap { code in
            let allowed = table[code]!.allowed
            return allowed.isEmpty ? nil : .allowedValues(code, form: 3, values: allowed)
        }
        return records
    }

    /// The properties that come from the camera itself: battery, clock, serial number.
    func derivedRecords(camera: VirtualCamera) -> [CanonEOSEvent] {
        [
            .propertyValue(.canonEOSBatteryPower, Self.pack(.uint16(Self.batteryCode(camera.settings.batteryLevel)))),
            .propertyValue(.canonEOSCameraTime, Self.pack(.uint32(UInt32(clamping: Int(camera.settings.clock.timeIntervalSince1970))))),
            .propertyValue(.canonEOSSerialNumber, Self.pack(.string(camera.identity.serialNumber))),
        ]
    }

    /// The record for one property now (nil when the body has no such property).
    func record(for code: DevicePropertyCode, camera: VirtualCamera) -> CanonEOSEvent? {
        if let setting = settings.withLock({ $0[code] }) { return .propertyValue(code, Self.pack(setting.value)) }
        return derivedRecords(camera: camera).first { if case .propertyValue(code, _) = $0 { true } else { false } }
    }

    /// An integer in a 4-byte slot, a string with its NUL.
    static func pack(_ value: PTPValue) -> [UInt8] {
        var w = PTPWriter()
        if case .string(let text) = value {
            w.raw(Array(text.utf8) + [0])
        } else {
            w.uint32(UInt32(truncatingIfNeeded: value.unsignedValue ?? 0))
        }
        return w.bytes
    }

    /// SetDevicePropValueEx's data: u32 size, u32 property, the value. Returns the response code.
    func set(_ data: [UInt8]) -> (ResponseCode, DevicePropertyCode?) {
        var r = PTPReader(data, context: "SetDevicePropValueEx")
        guard let size = try? r.uint32(), size >= 12, Int(size) <= data.count, let raw = try? r.uint32() else {
            return (.invalidDevicePropFormat, nil)
        }
        let code = DevicePropertyCode(UInt16(truncatingIfNeeded: raw))
        let valueBytes = Array(data[8..<Int(size)])
        return settings.withLock { table -> (ResponseCode, DevicePropertyCode?) in
            guard var setting = table[code] else { return (.devicePropNotSupported, code) }
            guard setting.writable else { return (.accessDenied, code) }
            let value: PTPValue
            if case .string = setting.value {
                let end = valueBytes.firstIndex(of: 0) ?? valueBytes.count
                value = .string(String(decoding: valueBytes[..<end], as: UTF8.self))
            } else {
                guard valueBytes.count >= 4 else { return (.invalidDevicePropFormat, code) }
                let slot = UInt32(valueBytes[0]) | UInt32(valueBytes[1]) << 8 | UInt32(valueBytes[2]) << 16 | UInt32(valueBytes[3]) << 24
                guard setting.allowed.isEmpty || setting.allowed.contains(slot) else { return (.invalidDevicePropValue, code) }
                value = switch setting.value {
                case .uint8: .uint8(UInt8(truncatingIfNeeded: slot))
                case .uint16: .uint16(UInt16(truncatingIfNeeded: slot))
                default: .uint32(slot)
                }
            }
            setting.value = value
            table[code] = setting
            return (.ok, code)
        }
    }
}

/// One initiator's session with the EOS body: its remote and event modes, its queue of records.
final class CanonEOSSession: PersonaSession {
    private struct State {
        var eventMode = false
        /// The next GetEvent starts with every property (after SetRemoteMode or SetEventMode).
        var dumpDue = false
        var queue: [CanonEOSEvent] = []
        /// What the initiator said it is (SetDevicePropValue of SessionInitiatorInfo).
        var initiatorInfo = CanonEOSStandardProperties.unknownInitiator
        /// The live-view frame this session was given last.
        var lastFrame: Int?
    }

    /// The most records kept for a session that never asks (the oldest go first).
    static let queueLimit = 10_000
    private let state = Locked(State())
    private let behaviour: CanonEOSBehaviour
    private let camera: VirtualCamera

    init(camera: VirtualCamera, behaviour: CanonEOSBehaviour) {
        self.camera = camera
        self.behaviour = behaviour
    }

    private func enqueue(_ records: [CanonEOSEvent]) {
        state.withLock { state in
            guard state.eventMode else { return }
            state.queue += records
            if state.queue.count > Self.queueLimit { state.queue.removeFirst(state.queue.count - Self.queueLimit) }
        }
    }

    func answer(_ command: PTPCommand, data: [UInt8]?, in session: ResponderSession) -> ResponderSession.Answer? {
        switch command.code {
        case .canonEOSSetRemoteMode:
            state.withLock { $0.dumpDue = true }
            return ResponderSession.Answer()
        case .canonEOSSetEventMode:
            let on = command.parameter(0) != 0
            state.withLock { state in
                state.eventMode = on
                state.dumpDue = on
                if !on { state.queue = [] }
            }
            return ResponderSession.Answer()
        case .canonEOSGetEvent:
            let records = state.withLock { state -> [CanonEOSEvent] in
                defer {
                    state.queue = []
                    state.dumpDue = false
                }
                return (state.dumpDue ? behaviour.allRecords(camera: camera) : []) + state.queue
            }
            return .data(CanonEOSEvent.encode(records))
        case .canonEOSGetStorageIDs:
            var w = PTPWriter()
            w.uint32Array(camera.card.storageIDs)
            return .data(w.bytes)
        case .canonEOSGetStorageInfo:
            guard let info = camera.card.storageInfo(command.parameter(0)) else { return .fail(.invalidStorageID) }
            return .data(info.encoded())
        case .canonEOSKeepDeviceOn:
            return ResponderSession.Answer()
        case .canonEOSRequestDevicePropValue:
            let code = DevicePropertyCode(UInt16(truncatingIfNeeded: command.parameter(0)))
            guard let record = behaviour.record(for: code, camera: camera) else { return .fail(.generalError) }
            enqueue([record])
            return ResponderSession.Answer()
        case .canonEOSSetDevicePropValueEx:
            guard let data else { return .fail(.invalidDevicePropFormat) }
            let (code, property) = behaviour.set(data)
            guard code == .ok, let property else { return .fail(code) }
            return ResponderSession.Answer(after: { [card = camera.card] in
                card.publish(PTPEvent(.devicePropChanged, parameters: [UInt32(property.rawValue)]))
            })
        case .canonEOSRemoteRelease:
            return release(in: session, camera: camera, result: true)
        case .canonEOSRemoteReleaseOn:
            // 1 is the half press (focus); 2 the full press, 3 both at once (EOS M).
            guard command.parameter(0) >= 2 else { return ResponderSession.Answer() }
            return release(in: session, camera: camera, result: false)
        case .canonEOSRemoteReleaseOff:
            return ResponderSession.Answer()
        case .canonEOSGetViewFinderData:
            return viewFinderData()
        case .getDevicePropDesc:
            let code = DevicePropertyCode(UInt16(truncatingIfNeeded: command.parameter(0)))
            let initiator = state.withLock { $0.initiatorInfo }
            guard let description = CanonEOSStandardProperties.description(of: code, camera: camera, initiator: initiator) else {
                return .fail(.devicePropNotSupported)
            }
            return .data(description.encoded())
        case .setDevicePropValue:
            let code = DevicePropertyCode(UInt16(truncatingIfNeeded: command.parameter(0)))
            guard CanonEOSStandardProperties.listed.contains(code) else { return .fail(.devicePropNotSupported) }
            guard code == .mtpSessionInitiatorInfo else { return .fail(.accessDenied) }
            var reader = PTPReader(data ?? [], context: "SessionInitiatorInfo")
            guard let text = try? reader.string() else { return .fail(.invalidDevicePropFormat) }
            state.withLock { $0.initiatorInfo = text }
            return ResponderSession.Answer()
        default:
            return nil
        }
    }

    /// The newest live-view frame as an EOS body sends it: a JPEG block (type 1) and a zoom block (type 5),
    /// each u32 length (its header included), u32 type, data. Not ready (0xA102) while the live view is not
    /// on the computer's side or no frame came since this session's last.
    private func viewFinderData() -> ResponderSession.Answer {
        guard behaviour.liveViewToPC else { return .fail(.canonEOSNotReady) }
        let last = state.withLock { $0.lastFrame }
        guard let frame = behaviour.liveView.frame(after: last) else { return .fail(.canonEOSNotReady) }
        state.withLock { $0.lastFrame = frame.number }
        var w = PTPWriter()
        w.uint32(UInt32(8 + frame.jpeg.count))
        w.uint32(1)
        w.raw(frame.jpeg)
        w.uint32(12)
        w.uint32(5)
        w.uint32(1)
        return .data(w.bytes)
    }

    /// Takes the picture after the response, as the generic camera's InitiateCapture does; the new
    /// objects reach every session's queue as ObjectAddedEx records.
    private func release(in session: ResponderSession, camera: VirtualCamera, result: Bool) -> ResponderSession.Answer {
        let card = camera.card
        guard !card.readOnly, card.canCapture else {
            // RemoteRelease's result 8: the card is read-only.
            return result ? ResponderSession.Answer(parameters: [8]) : .fail(.storeReadOnly)
        }
        let newFolder = camera.quirks.contains(.captureNewFolder)
        return ResponderSession.Answer(parameters: result ? [0] : [], after: {
            do {
                _ = try card.capture(newFolder: newFolder, naming: camera.persona.shotNaming)
                camera.settings.drainForShot()
                card.publish(PTPEvent(.devicePropChanged, parameters: [UInt32(DevicePropertyCode.batteryLevel.rawValue)]))
            } catch {
                camera.log("capture: \(error)")
            }
        })
    }

    /// Card changes become records in the queue; nothing is sent on the event channel.
    func cardEvent(_ event: PTPEvent) -> Bool {
        switch event.code {
        case .objectAdded:
            guard let object = camera.card.object(event.parameter(0)) else { return false }
            enqueue([.objectAdded(CanonEOSObject(
                handle: object.handle, storageID: object.storageID, format: object.format,
                size: UInt32(min(object.size, UInt64(UInt32.max))), parent: object.parent == 0 ? 0xFFFF_FFFF : object.parent,
                name: object.name))])
        case .objectRemoved:
            enqueue([.objectRemoved(handle: event.parameter(0))])
        case .devicePropChanged:
            let code = DevicePropertyCode(UInt16(truncatingIfNeeded: event.parameter(0)))
            let eos = code == .batteryLevel ? .canonEOSBatteryPower : code
            if let record = behaviour.record(for: eos, camera: camera) { enqueue([record]) }
        case .storeAdded, .storeRemoved:
            enqueue([.storesChanged(
                type: event.code == .storeAdded ? CanonEOSEvent.storeAddedType : CanonEOSEvent.storeRemovedType,
                storage: event.parameter(0))])
        default:
            break
        }
        return false
    }
}

/// The standard (PTP and MTP) properties an EOS body lists in DeviceInfo and describes with
/// GetDevicePropDesc, as a real one answers (libgphoto2's dump of an EOS Rebel T3, whose list is the 80D's).
enum CanonEOSStandardProperties {
    static let listed: [DevicePropertyCode] = [
        .mtpDeviceFriendlyName, .mtpPerceivedDeviceType, .mtpSessionInitiatorInfo, .mtpUseDeviceStage, .batteryLevel,
    ]
    static let unknownInitiator = "Unknown Initiator"
    /// The battery levels the body's BatteryLevel enumerates, in its order (0 twice, as the body lists it).
    static let batteryLevels: [UInt8] = [100, 0, 75, 0, 50]

    static func description(of code: DevicePropertyCode, camera: VirtualCamera, initiator: String) -> DevicePropertyDescription? {
        switch code {
        case .mtpDeviceFriendlyName:
            let model = PTPValue.string(camera.identity.model)
            return DevicePropertyDescription(code: code, dataType: .string, writable: false, factoryDefault: model, current: model)
        case .mtpPerceivedDeviceType:
            return DevicePropertyDescription(code: code, dataType: .uint32, writable: false, factoryDefault: .uint32(1), current: .uint32(1))
        case .mtpSessionInitiatorInfo:
            return DevicePropertyDescription(
                code: code, dataType: .string, writable: true, factoryDefault: .string(unknownInitiator), current: .string(initiator))
        case .mtpUseDeviceStage:
            return DevicePropertyDescription(code: code, dataType: .uint8, writable: false, factoryDefault: .uint8(1), current: .uint8(1))
        case .batteryLevel:
            return DevicePropertyDescription(
                code: code, dataType: .uint8, writable: false, factoryDefault: .uint8(100),
                current: .uint8(battery(camera.settings.batteryLevel)), form: .enumeration(batteryLevels.map(PTPValue.uint8)))
        default:
            return nil
        }
    }

    /// The listed level a battery of `percent` reports: the same steps as its EOS BatteryPower.
    static func battery(_ percent: UInt8) -> UInt8 {
        switch percent {
        case 88...: 100
        case 63...: 75
        case 38...: 50
        default: 0
        }
    }
}
