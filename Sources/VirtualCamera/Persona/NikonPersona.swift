import Foundation
import POSIX
import PTP

/// The `nikon` persona: a Nikon body as libgphoto2 and our client speak to it. DeviceInfo says Nikon
/// (vendor extension 10, "Nikon Corporation") and lists Nikon's GetEvent (0x90C7), DeviceReady (0x90C8),
/// ChangeCameraMode (0x90C2) and InitiateCaptureRecInSdram (0x90C0) beside the standard InitiateCapture.
/// Changes are queued for GetEvent (u16 count, then u16 code and u32 parameter each), none is sent on the
/// event channel. DeviceReady answers DeviceBusy while a shot is being taken. A shot into the body's
/// memory (SDRAM) is object 0xFFFF0001, outside the card: ObjectInfo with parent 0 and store 0, readable
/// whole or in part, gone once deleted; ObjectAddedInSDRAM (0xC101) announces it.
enum NikonPersona {
    static func make() -> Persona {
        var persona = Persona(name: .nikon, behaviour: NikonBehaviour())
        persona.manufacturer = "Nikon Corporation"
        persona.model = "D750"
        persona.usbIDs = (0x04B0, 0x0437)
        // DSC_0001.JPG (sRGB; movies too), _DSC0001.JPG in Adobe RGB, on one counter.
        persona.shotNaming = ShotNaming(prefix: "DSC_", sharedWith: ["_DSC"], folderSuffix: "NIKON")
        persona.version = "V1.10"
        persona.vendorExtensionID = VendorExtensionID.nikon.rawValue
        persona.vendorExtensionVersion = 100
        persona.vendorExtensionDescription = "microsoft.com: 1.0; "
        persona.vendorOperations = [
            .nikonInitiateCaptureRecInSdram, .nikonChangeCameraMode, .nikonDelImageSDRAM, .nikonGetEvent,
            .nikonDeviceReady, .nikonStartLiveView, .nikonEndLiveView, .nikonGetLiveViewImg,
        ]
        persona.captureOperations = [.nikonInitiateCaptureRecInSdram]
        persona.events = [
            .objectAdded, .objectRemoved, .devicePropChanged, .storeFull, .captureComplete,
            .nikonObjectAddedInSDRAM, .nikonCaptureCompleteRecInSdram,
        ]
        // The standard settings; not the virtual camera's work mode, whose code is one of Nikon's own.
        persona.properties = CameraSettings.supported
        return persona
    }
}

/// The body's memory (SDRAM) shots, shared by its sessions.
final class NikonBehaviour: PersonaBehaviour {
    static let sdramHandle: UInt32 = 0xFFFF_0001

    struct SDRAMShot {
        var name: String
        var bytes: [UInt8]
        var taken: Date
    }

    let sdram = Locked<SDRAMShot?>(nil)
    /// Shots taken into memory, for their names (DSC_0001.JPG ...).
    let shots = Locked(0)
    /// Shots under way (a capture's work after its response): DeviceReady answers DeviceBusy meanwhile.
    let busy = Locked(0)

    /// Its live view, between StartLiveView and EndLiveView.
    let liveView = LiveViewFrames()
    let liveViewOn = Locked(false)
    /// The header before each live-view JPEG (a D750's is 384 bytes: focus areas, levels, sizes).
    static let liveViewHeaderBytes = 384

    func makeSession(for camera: VirtualCamera) -> any PersonaSession { NikonSession(camera: camera, behaviour: self) }
}

/// One initiator's session with the Nikon body: its GetEvent queue.
final class NikonSession: PersonaSession {
    static let queueLimit = 10_000
    private let queue = Locked<[PTPEvent]>([])
    /// The live-view frame this session was given last.
    private let lastFrame = Locked<Int?>(nil)
    private let camera: VirtualCamera
    private let behaviour: NikonBehaviour

    init(camera: VirtualCamera, behaviour: NikonBehaviour) {
        self.camera = camera
        self.behaviour = behaviour
    }

    private func enqueue(_ events: [PTPEvent]) {
        queue.withLock { queue in
            queue += events
            if queue.count > Self.queueLimit { queue.removeFirst(queue.count - Self.queueLimit) }
        }
    }

    func answer(_ command: PTPCommand, data: [UInt8]?, in session: ResponderSession) -> ResponderSession.Answer? {
        let handle = command.parameter(0)
        switch command.code {
        case .nikonGetEvent:
            let events = queue.withLock { queue -> [PTPEvent] in
                defer { queue = [] }
                return queue
            }
            return .data(NikonEvents.encode(events))
        case .nikonDeviceReady:
            return behaviour.busy.withLock({ $0 > 0 }) ? .fail(.deviceBusy) : ResponderSession.Answer()
        case .nikonChangeCameraMode:
            return command.parameter(0) <= 1 ? ResponderSession.Answer() : .fail(.invalidParameter)
        case .initiateCapture:
            // The standard capture onto the card, busy until done, announced through GetEvent.
            return capture(into: .card, command)
        case .nikonInitiateCaptureRecInSdram:
            return capture(into: .sdram, command)
        case .nikonStartLiveView:
            behaviour.liveViewOn.withLock { $0 = true }
            return ResponderSession.Answer()
        case .nikonEndLiveView:
            behaviour.liveViewOn.withLock { $0 = false }
            return ResponderSession.Answer()
        case .nikonGetLiveViewImg:
            guard behaviour.liveViewOn.withLock({ $0 }) else { return .fail(.nikonNotLiveView) }
            guard let frame = behaviour.liveView.frame(after: lastFrame.withLock({ $0 })) else { return .fail(.deviceBusy) }
            lastFrame.withLock { $0 = frame.number }
            return .data([UInt8](repeating: 0, count: NikonBehaviour.liveViewHeaderBytes) + frame.jpeg)
        case .nikonDelImageSDRAM:
            behaviour.sdram.withLock { $0 = nil }
            return ResponderSession.Answer()
        case .getObjectInfo where handle == NikonBehaviour.sdramHandle:
            guard let shot = behaviour.sdram.withLock({ $0 }) else { return .fail(.invalidObjectHandle) }
            var info = ObjectInfo()
            info.storageID = 0
            info.format = .exifJPEG
            info.compressedSize = UInt32(shot.bytes.count)
            info.parentObject = 0
            info.filename = shot.name
            info.captureDate = PTPDateTime.format(shot.taken)
            info.modificationDate = info.captureDate
            return .data(info.encoded())
        case .getObject where handle == NikonBehaviour.sdramHandle:
            guard let shot = behaviour.sdram.withLock({ $0 }) else { return .fail(.invalidObjectHandle) }
            return .data(shot.bytes)
        case .getPartialObject where handle == NikonBehaviour.sdramHandle:
            guard let shot = behaviour.sdram.withLock({ $0 }) else { return .fail(.invalidObjectHandle) }
            let offset = Int(min(UInt64(command.parameter(1)), UInt64(shot.bytes.count)))
            let count = min(Int(command.parameter(2)), shot.bytes.count - offset)
            return ResponderSession.Answer(parameters: [UInt32(count)], data: BufferSource(Array(shot.bytes[offset..<(offset + count)])))
        case .getThumb where handle == NikonBehaviour.sdramHandle:
            return .fail(.noThumbnailPresent)
        case .deleteObject where handle == NikonBehaviour.sdramHandle:
            guard behaviour.sdram.withLock({ $0 }) != nil else { return .fail(.invalidObjectHandle) }
            behaviour.sdram.withLock { $0 = nil }
            return ResponderSession.Answer()
        default:
            return nil
        }
    }

    private enum Target { case card, sdram }

    /// Answers at once, takes the picture after the response (busy meanwhile), and queues its events.
    private func capture(into target: Target, _ command: PTPCommand) -> ResponderSession.Answer {
        let card = camera.card
        guard card.canCapture else { return .fail(.operationNotSupported) }
        if target == .card {
            guard command.parameter(0) == 0 || command.parameter(0) == card.storage.id else { return .fail(.invalidStorageID) }
            guard !card.readOnly else { return .fail(.storeReadOnly) }
        }
        let (camera, behaviour) = (self.camera, self.behaviour)
        behaviour.busy.withLock { $0 += 1 }
        return ResponderSession.Answer(after: { [self] in
            defer { behaviour.busy.withLock { $0 -= 1 } }
            switch target {
            case .card:
                do {
                    _ = try card.capture(newFolder: camera.quirks.contains(.captureNewFolder), naming: camera.persona.shotNaming)
                    camera.settings.drainForShot()
                    enqueue([PTPEvent(.captureComplete)])
                } catch {
                    camera.log("capture: \(error)")
                }
            case .sdram:
                // The body's counter goes on for a shot kept off the card too.
                let naming = camera.persona.shotNaming
                let number = behaviour.shots.withLock { last in
                    last = max(last, card.highestNumber(of: naming)) % 9999 + 1
                    return last
                }
                behaviour.sdram.withLock {
                    $0 = NikonBehaviour.SDRAMShot(name: naming.name(number), bytes: card.captureImage, taken: camera.settings.clock)
                }
                camera.settings.drainForShot()
                enqueue([PTPEvent(.nikonObjectAddedInSDRAM, parameters: [NikonBehaviour.sdramHandle]), PTPEvent(.nikonCaptureCompleteRecInSdram)])
            }
        })
    }

    /// Card changes are queued for GetEvent; nothing goes on the event channel.
    func cardEvent(_ event: PTPEvent) -> Bool {
        switch event.code {
        case .captureComplete: break  // the capture queues its own, after its objects
        default: enqueue([PTPEvent(event.code, parameters: [event.parameter(0)])])
        }
        return false
    }
}
