import Foundation
import MediaFormats
import PTP

/// A PTP camera in software: answers a PTP initiator over any `ResponderTransport` from a `Card`.
/// One `VirtualCamera` serves any number of sessions, one per connection, each on its caller's thread.
public final class VirtualCamera: Sendable {
    public struct Identity: Sendable {
        public var manufacturer = "mediashell"
        public var model = "Virtual Camera"
        public var version = "1.0"
        public var serialNumber = "MSH00000001"
        /// Whether it has settings to report (battery, clock, exposure, work mode: `CameraSettings`); a card
        /// folder has none, and lists no device properties rather than simulated ones.
        public var hasSettings = true
        public init() {}

        /// How a mounted card folder (`dir:`) describes itself: its own model name, no firmware version and
        /// no settings (a folder has no battery, clock or exposure), and for a serial number the card's
        /// identity (`CardIdentity`: its volume, else its path, hashed: not the folder's name, which a
        /// redacted `--debug-ptp` trace must not show), so each card has its own import ledger.
        public static func cardFolder(_ path: String) -> Identity {
            var identity = Identity()
            identity.model = "card folder"
            identity.version = ""
            identity.hasSettings = false
            identity.serialNumber = CardIdentity.serialNumber(forFolder: path, prefix: "DIR")
            return identity
        }

        /// The virtual camera serving a folder (`sim:PATH`, `serve DIR`): a serial number of that folder's
        /// own, so two folders are two cameras to an import ledger (the demo card keeps MSH00000001).
        public static func servingFolder(_ path: String) -> Identity {
            var identity = Identity()
            identity.serialNumber = CardIdentity.serialNumber(forFolder: path, prefix: "MSH")
            return identity
        }
    }

    public let card: Card
    public let identity: Identity
    /// Called with one line for notable events (session start/end, errors); never with file contents.
    public let log: @Sendable (String) -> Void
    /// The real-camera behaviours this camera imitates (`serve --quirks`); none by default.
    public let quirks: Quirks
    /// Which camera it pretends to be (`serve --persona`): the generic one by default.
    public let persona: Persona
    /// Battery, clock, exposure and the other device properties, shared by every session.
    public let settings = CameraSettings()
    private let thumbnails: ThumbnailCache
    let videos: VideoFactsCache
    /// The session that outlives its connection under `sticky-session`.
    let stickySession = StickySession()

    /// `videoFrames` decodes a video's first keyframe for its thumbnail; without one, videos without a
    /// `.THM` get a generated tile.
    public init(
        card: Card, identity: Identity = Identity(), quirks: Quirks = [], persona: Persona = .generic,
        videoFrames: VideoFrameDecoder? = nil, log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.card = card
        self.identity = persona.apply(to: identity)
        self.quirks = quirks
        self.persona = persona
        self.advertised = Self.operations(with: quirks)
        self.log = log
        self.thumbnails = ThumbnailCache(card: card, videoFrames: videoFrames)
        self.videos = VideoFactsCache(card: card)
    }

    /// The operations a camera without quirks answers.
    public static let operations: [OperationCode] = [
        .getDeviceInfo, .openSession, .closeSession, .getStorageIDs, .getStorageInfo, .getNumObjects,
        .getObjectHandles, .getObjectInfo, .getObject, .getThumb, .deleteObject, .initiateCapture,
        .getDevicePropDesc, .getDevicePropValue, .setDevicePropValue, .getPartialObject, .getPartialObject64,
        .getObjectPropsSupported, .getObjectPropDesc, .getObjectPropValue, .getObjectPropList,
    ]

    /// The operations this camera answers, and so lists in DeviceInfo: its quirks take some away, capture
    /// is there only when the card can take a picture, uploads only when it accepts them, the device
    /// properties' only when it has settings. A vendor's body
    /// (a persona with capture operations of its own) lists its capture operations on a read-only card too
    /// and refuses the shot (StoreReadOnly), as a body with a locked card does; its vendor's clients open
    /// the camera through them (gphoto2's Fuji client needs InitiateOpenCapture).
    public var operations: [OperationCode] {
        var operations = advertised.filter { !persona.withoutOperations.contains($0) }
        let isBody = !persona.captureOperations.isEmpty
        let offersCapture = card.canCapture && (!card.readOnly || isBody)
        if !offersCapture { operations.removeAll { $0 == .initiateCapture } }
        if !identity.hasSettings { operations.removeAll(where: Self.propertyOperations.contains) }
        if card.uploads != nil || (card.readOnly && quirks.contains(.uploadsOnReadOnly)) {
            operations += [.sendObjectInfo, .sendObject]
        }
        operations += persona.vendorOperations.filter { offersCapture || !persona.captureOperations.contains($0) }
        return operations
    }
    private let advertised: [OperationCode]

    /// The operations on device properties, which a camera without settings neither lists nor answers.
    static let propertyOperations: Set<OperationCode> = [.getDevicePropDesc, .getDevicePropValue, .setDevicePropValue]

    static func operations(with quirks: Quirks) -> [OperationCode] {
        var removed: Set<OperationCode> = []
        if quirks.contains(.noProplist) {
            removed.formUnion([.getObjectPropList, .getObjectPropsSupported, .getObjectPropDesc, .getObjectPropValue])
        }
        if quirks.contains(.noThumbs) { removed.insert(.getThumb) }
        if quirks.contains(.noPartial) { removed.formUnion([.getPartialObject, .getPartialObject64]) }
        return Self.operations.filter { !removed.contains($0) }
    }

    public var deviceInfo: DeviceInfo {
        var info = DeviceInfo()
        info.standardVersion = 100
        // Vendor extension 0 keeps generic initiators (gphoto2) on their standard PTP paths; a persona's
        // extension sends them down the vendor's.
        info.vendorExtensionID = persona.vendorExtensionID
        info.vendorExtensionVersion = persona.vendorExtensionVersion
        info.vendorExtensionDescription = persona.vendorExtensionDescription
        info.operationsSupported = operations
        info.eventsSupported = persona.events ?? [
            .objectAdded, .objectRemoved, .storeAdded, .storeRemoved, .objectInfoChanged, .captureComplete,
            .devicePropChanged,
        ]
        info.devicePropertiesSupported = identity.hasSettings ? persona.properties ?? DeviceProperties.supported : []
        if quirks.contains(.undescribedProps) {
            info.devicePropertiesSupported += (0xD212...0xD21F).map { DevicePropertyCode(UInt16($0)) }
        }
        info.captureFormats = operations.contains { $0 == .initiateCapture || persona.captureOperations.contains($0) } ? [.exifJPEG] : []
        info.imageFormats = [
            .association, .undefined, .text, .exifJPEG, .dng, .tiff, .png, .heif, .mp4Container, .quickTime,
        ]
        info.manufacturer = identity.manufacturer
        info.model = identity.model
        info.deviceVersion = identity.version
        info.serialNumber = identity.serialNumber
        return info
    }

    /// Answers commands from `transport` until the initiator disconnects or the connection fails,
    /// then closes it. `peer` names the client in log lines.
    @discardableResult
    public func serve(_ transport: ResponderTransport, peer: String = "client") -> SessionStats {
        let session = ResponderSession(camera: self, transport: transport, thumbnails: thumbnails)
        return session.run(peer: peer)
    }
}

/// What one session did, for the one log line `serve` prints per session.
public struct SessionStats: Sendable {
    public var transactions = 0
    public var bytesSent: UInt64 = 0
    public var duration: TimeInterval = 0
    /// Why the session ended, when it was not a clean disconnect.
    public var error: String?
    public init() {}
}
