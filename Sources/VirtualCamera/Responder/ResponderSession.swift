import Foundation
import MediaFormats
import POSIX
import PTP

/// One initiator's session with the virtual camera: reads commands, answers each, forwards card events.
final class ResponderSession {
    let camera: VirtualCamera
    let transport: ResponderTransport
    let thumbnails: ThumbnailCache
    var videos: VideoFactsCache { camera.videos }
    var card: Card { camera.card }
    var sessionID: UInt32?
    /// What the last SendObjectInfo announced, until its SendObject.
    var pendingUpload: ResponderUpload?
    /// What this connection's quirks remember, and how they describe objects.
    let quirkState: QuirkState
    let presentation: ObjectPresentation
    var quirks: Quirks { camera.quirks }
    /// Each session starts in download mode, so initiators that know nothing of modes (gphoto2) work.
    private var mode = WorkMode.download
    /// The persona's state for this session (its vendor operations, its event queue); nil: generic.
    let personaSession: (any PersonaSession)?

    /// Largest data phase accepted from an initiator (SetDevicePropValue and the like are tiny).
    static let maximumIncomingData = 1 << 20
    /// GetObject streams files of any size; bigger phases than this one are sent in the transport's chunks.
    static let thumbnailLimit = 1 << 20

    init(camera: VirtualCamera, transport: ResponderTransport, thumbnails: ThumbnailCache) {
        self.camera = camera
        self.transport = transport
        self.thumbnails = thumbnails
        quirkState = QuirkState(quirks: camera.quirks)
        presentation = ObjectPresentation(quirks: camera.quirks, card: camera.card)
        personaSession = camera.persona.behaviour?.makeSession(for: camera)
    }

    func run(peer: String) -> SessionStats {
        let started = monotonicSeconds()
        var stats = SessionStats()
        let transport = self.transport
        let (state, card, persona) = (quirkState, self.card, personaSession)
        let subscription = card.subscribe { event in
            guard persona?.cardEvent(event) ?? true else { return }
            if state.forwards(event, card: card) { try? transport.sendEvent(event) }
        }
        defer {
            card.unsubscribe(subscription)
            transport.close()
        }
        while true {
            let incoming: IncomingCommand
            do {
                guard let next = try transport.receiveCommand() else { break }
                incoming = next
            } catch {
                stats.error = "\(error)"
                break
            }
            stats.transactions += 1
            do {
                stats.bytesSent += try handle(incoming)
            } catch {
                // The connection itself failed (timeout, reset, malformed packet): end this session.
                stats.error = "\(incoming.command.code): \(error)"
                break
            }
        }
        stats.duration = monotonicSeconds() - started
        return stats
    }

    /// What an operation answers: a response code, parameters, and an optional data phase.
    struct Answer {
        var code: ResponseCode = .ok
        var parameters: [UInt32] = []
        var data: DataSource?
        var after: (() -> Void)?

        static func fail(_ code: ResponseCode) -> Answer { Answer(code: code) }
        static func data(_ bytes: [UInt8]) -> Answer { Answer(data: BufferSource(bytes)) }
    }

    /// Answers one command; returns the bytes of its data phase.
    private func handle(_ incoming: IncomingCommand) throws -> UInt64 {
        let command = incoming.command
        card.noteActivity()
        try dropsConnection(before: command)
        var answer: Answer
        if incoming.hasDataOut && command.code == .sendObject {
            answer = try receiveObject(command)
        } else if incoming.hasDataOut {
            let bytes = try transport.receiveData(
                transactionID: command.transactionID, limit: Self.maximumIncomingData)
            if sessionID != nil, let vendor = personaSession?.answer(command, data: bytes, in: self) {
                answer = vendor
            } else {
                answer = answerWithData(command, bytes)
            }
        } else if let quirky = quirkyAnswer(command) {
            guard let quirky else { return 0 }  // a stalled request: never answered
            answer = quirky
        } else if sessionID == nil && command.code != .getDeviceInfo && command.code != .openSession {
            answer = .fail(.sessionNotOpen)
        } else if !camera.identity.hasSettings && VirtualCamera.propertyOperations.contains(command.code) {
            answer = .fail(.operationNotSupported)
        } else if sessionID != nil, let vendor = personaSession?.answer(command, data: nil, in: self) {
            answer = vendor
        } else {
            do {
                answer = try answerCommand(command)
            } catch let error as CardError {
                answer = .fail(Self.responseCode(for: error, operation: command.code))
                if case .folder(let why) = error { camera.log("\(command.code): \(why)") }
            }
        }
        if let data = answer.data {
            try transport.sendData(transactionID: command.transactionID, source: data)
        }
        try transport.sendResponse(PTPResponse(answer.code, transactionID: command.transactionID, parameters: answer.parameters))
        answer.after?()
        return answer.data?.length ?? 0
    }

    static func responseCode(for error: CardError, operation: OperationCode) -> ResponseCode {
        switch error {
        case .noSuchObject: .invalidObjectHandle
        case .readOnly: operation == .deleteObject ? .objectWriteProtected : .storeReadOnly
        case .outsideRoot: .accessDenied
        case .folder: .generalError
        case .unsupported: operation == .getThumb ? .noThumbnailPresent : .operationNotSupported
        case .exists: .accessDenied
        case .badName: .invalidDataset
        case .tooLarge: .objectTooLarge
        case .full: .storeFull
        }
    }

    private func answerWithData(_ command: PTPCommand, _ bytes: [UInt8]) -> Answer {
        guard sessionID != nil else { return .fail(.sessionNotOpen) }
        if !camera.identity.hasSettings && VirtualCamera.propertyOperations.contains(command.code) {
            return .fail(.operationNotSupported)
        }
        switch command.code {
        case .sendObjectInfo:
            return answerSendObjectInfo(command, bytes)
        case .setDevicePropValue:
            let code = DevicePropertyCode(UInt16(truncatingIfNeeded: command.parameter(0)))
            if code == .workMode {
                guard bytes.count == 1, let newMode = WorkMode(rawValue: bytes[0]) else {
                    return .fail(.invalidDevicePropValue)
                }
                mode = newMode
                return Answer(after: { [card] in card.publish(PTPEvent(.devicePropChanged, parameters: [UInt32(code.rawValue)])) })
            }
            do {
                try camera.settings.set(code, bytes: bytes)
            } catch {
                switch error {
                case .notSupported: return .fail(.devicePropNotSupported)
                case .readOnly: return .fail(.accessDenied)
                case .invalidValue: return .fail(.invalidDevicePropValue)
                }
            }
            return Answer(after: { [card] in card.publish(PTPEvent(.devicePropChanged, parameters: [UInt32(code.rawValue)])) })
        default:
            return .fail(.operationNotSupported)
        }
    }

    /// Operations on the card's media, refused in shoot mode (as a drone's camera does).
    static let mediaOperations: Set<OperationCode> = [.getObject, .getPartialObject, .getPartialObject64, .getThumb, .deleteObject]

    private func answerCommand(_ command: PTPCommand) throws -> Answer {
        let p = command.parameters
        func param(_ i: Int) -> UInt32 { i < p.count ? p[i] : 0 }
        if mode == .shoot && Self.mediaOperations.contains(command.code) { return .fail(.deviceBusy) }
        switch command.code {
        case .getDeviceInfo:
            return .data(camera.deviceInfo.encoded())

        case .openSession:
            if let sessionID { return Answer(code: .sessionAlreadyOpen, parameters: [sessionID]) }
            guard param(0) != 0 else { return .fail(.invalidParameter) }
            if quirks.contains(.stickySession) {
                if let kept = camera.stickySession.openID {
                    sessionID = kept
                    return Answer(code: .sessionAlreadyOpen, parameters: [kept])
                }
                camera.stickySession.open(param(0))
            }
            sessionID = param(0)
            return Answer()

        case .closeSession:
            sessionID = nil
            if quirks.contains(.stickySession) { camera.stickySession.close() }
            return Answer()

        case .getStorageIDs:
            var w = PTPWriter()
            w.uint32Array(card.storageIDs)
            return .data(w.bytes)

        case .getStorageInfo:
            guard let info = card.storageInfo(param(0)) else { return .fail(.invalidStorageID) }
            return .data(info.encoded())

        case .getNumObjects, .getObjectHandles:
            guard let handles = try objectHandles(storage: param(0), format: param(1), parent: param(2)) else {
                return .fail(param(0) == 0xFFFF_FFFF || card.storageIDs.contains(param(0)) ? .invalidParentObject : .invalidStorageID)
            }
            if command.code == .getNumObjects { return Answer(parameters: [UInt32(handles.count)]) }
            var w = PTPWriter(capacity: 4 + handles.count * 4)
            w.uint32Array(handles)
            return .data(w.bytes)

        case .getObjectInfo:
            guard let object = card.object(param(0)), quirkState.isKnown(object) else { return .fail(.invalidObjectHandle) }
            return .data(presentation.encode(objectInfo(object), of: object))

        case .getObject:
            let reader = try card.openContent(param(0))
            return Answer(data: ContentDataSource(reader, offset: 0, length: reader.length))

        case .getPartialObject, .getPartialObject64:
            let is64 = command.code == .getPartialObject64
            let offset = is64 ? UInt64(param(1)) | UInt64(param(2)) << 32 : UInt64(param(1))
            let requested = UInt64(is64 ? param(3) : param(2))
            let reader = try card.openContent(param(0))
            guard offset <= reader.length else { return .fail(.invalidParameter) }
            let count = min(requested, reader.length - offset, UInt64(UInt32.max))
            return Answer(parameters: [UInt32(count)], data: ContentDataSource(reader, offset: offset, length: count))

        case .getThumb:
            guard card.object(param(0)) != nil else { return .fail(.invalidObjectHandle) }
            if quirks.contains(.noThumbInfo) { return .fail(.generalError) }
            return .data(try thumbnails.thumbnail(for: param(0)))

        case .deleteObject:
            guard param(0) != 0xFFFF_FFFF else { return .fail(.parameterNotSupported) }
            guard let object = card.object(param(0)) else { return .fail(.invalidObjectHandle) }
            // A folder goes with everything in it: only on a card that takes uploads (serve --writable).
            if object.isFolder && card.uploads == nil { return .fail(.objectWriteProtected) }
            try card.delete(param(0))
            return Answer()

        case .initiateCapture:
            guard param(0) == 0 || param(0) == card.storage.id else { return .fail(.invalidStorageID) }
            let format = param(1)
            guard format == 0 || format == UInt32(ObjectFormatCode.exifJPEG.rawValue) else {
                return .fail(.invalidObjectFormatCode)
            }
            guard !card.readOnly else { return .fail(.storeReadOnly) }
            guard card.canCapture else { return .fail(.operationNotSupported) }
            let card = self.card
            let settings = camera.settings
            let transaction = command.transactionID
            // A camera answers at once and reports the new file through events, after the response.
            let newFolder = quirks.contains(.captureNewFolder)
            return Answer(after: {
                do {
                    _ = try card.capture(newFolder: newFolder, naming: self.camera.persona.shotNaming)
                    settings.drainForShot()
                    card.publish(PTPEvent(.devicePropChanged, parameters: [UInt32(DevicePropertyCode.batteryLevel.rawValue)]))
                    card.publish(PTPEvent(.captureComplete, transactionID: transaction))
                } catch {
                    self.camera.log("capture: \(error)")
                }
            })

        case .getDevicePropDesc:
            let code = DevicePropertyCode(UInt16(truncatingIfNeeded: param(0)))
            guard let bytes = DeviceProperties.describe(code, mode: mode, settings: camera.settings) else { return .fail(.devicePropNotSupported) }
            return .data(bytes)

        case .getDevicePropValue:
            let code = DevicePropertyCode(UInt16(truncatingIfNeeded: param(0)))
            guard let bytes = DeviceProperties.value(code, mode: mode, settings: camera.settings) else { return .fail(.devicePropNotSupported) }
            return .data(bytes)

        case .getObjectPropsSupported:
            var w = PTPWriter()
            w.uint16Array(ObjectProperties.supported.map(\.rawValue))
            return .data(w.bytes)

        case .getObjectPropDesc:
            let code = ObjectPropertyCode(UInt16(truncatingIfNeeded: param(0)))
            guard let bytes = ObjectProperties.describe(code) else { return .fail(.invalidObjectPropCode) }
            return .data(bytes)

        case .getObjectPropValue:
            guard let object = card.object(param(0)) else { return .fail(.invalidObjectHandle) }
            let code = ObjectPropertyCode(UInt16(truncatingIfNeeded: param(1)))
            guard let value = ObjectProperties.value(code, of: object, card: card, videos: videos) else {
                return .fail(.invalidObjectPropCode)
            }
            var w = PTPWriter()
            value.encode(into: &w)
            return .data(w.bytes)

        case .getObjectPropList:
            return try objectPropList(
                handle: param(0), format: param(1), property: param(2), group: param(3), depth: param(4))

        default:
            return .fail(.operationNotSupported)
        }
    }

    /// GetObjectHandles' selection; nil when the parent is not a folder of this card.
    private func objectHandles(storage: UInt32, format: UInt32, parent: UInt32) throws -> [UInt32]? {
        guard storage == 0xFFFF_FFFF || card.storageIDs.contains(storage) else { return nil }
        card.refresh(full: false)
        if parent != 0xFFFF_FFFF && parent != 0 {
            guard let folder = card.object(parent), quirkState.isKnown(folder) else { return nil }
        }
        var handles: [UInt32]
        switch parent {
        case 0xFFFF_FFFF, 0:
            handles = parent == 0 ? card.descendants(of: 0) : card.children(of: 0) ?? []
            // The root of one store holds only that store's objects.
            if storage != 0xFFFF_FFFF && !card.extraStorages.isEmpty {
                handles = handles.filter { card.object($0)?.storageID == storage }
            }
        default:
            guard card.object(parent)?.isFolder == true, let kids = card.children(of: parent) else { return nil }
            handles = kids
        }
        if format != 0 {
            handles = handles.filter { card.object($0).map { UInt32(presentation.format(of: $0).rawValue) } == format }
        }
        return quirkyHandles(handles, parent: parent)
    }

    private func objectPropList(handle: UInt32, format: UInt32, property: UInt32, group: UInt32, depth: UInt32) throws -> Answer {
        if property == 0 { return .fail(.specificationByGroupUnsupported) }
        let properties: [ObjectPropertyCode]
        if property == 0xFFFF_FFFF {
            properties = ObjectProperties.supported
        } else {
            let code = ObjectPropertyCode(UInt16(truncatingIfNeeded: property))
            guard ObjectProperties.supported.contains(code) else { return .fail(.invalidObjectPropCode) }
            properties = [code]
        }
        card.refresh(full: false)
        if handle != 0 && handle != 0xFFFF_FFFF && !quirkState.isScanned(handle) { return .fail(.invalidObjectHandle) }
        if quirks.contains(.proplistListsSelf) { return propListOfItself(handle, properties: properties) }
        var handles: [UInt32]
        switch (handle, quirks.contains(.proplistIgnoresDepth) ? 0xFFFF_FFFF : depth) {
        case (0xFFFF_FFFF, _), (0, 0xFFFF_FFFF):
            handles = card.descendants(of: 0)
        case (0, 1):
            handles = card.children(of: 0) ?? []
        case (0, _):
            return .fail(.specificationByDepthUnsupported)
        case (_, 0):
            guard card.object(handle) != nil else { return .fail(.invalidObjectHandle) }
            handles = [handle]
        case (_, 1):
            guard card.object(handle) != nil else { return .fail(.invalidObjectHandle) }
            handles = card.children(of: handle) ?? []
        case (_, 0xFFFF_FFFF):
            guard card.object(handle) != nil else { return .fail(.invalidObjectHandle) }
            handles = card.descendants(of: handle)
        default:
            return .fail(.specificationByDepthUnsupported)
        }
        return propList(of: handles, properties: properties, format: format)
    }

    func objectInfo(_ object: CardObject) -> ObjectInfo {
        var info = ObjectInfo()
        info.storageID = object.storageID
        info.format = object.format
        info.compressedSize = UInt32(min(object.size, UInt64(UInt32.max)))
        info.protectionStatus = card.readOnly ? 1 : 0
        if object.format.isImage || MediaKind(fileName: object.name).isVideo {
            info.thumbFormat = .exifJPEG
            // The real size once the thumbnail was made; before, a nominal one (making it for every
            // ObjectInfo would slow listings down), never 0, which means "no thumbnail".
            info.thumbCompressedSize = thumbnails.cachedSize(for: object.handle) ?? 4096
            info.thumbPixWidth = 160
            info.thumbPixHeight = 120
        }
        info.parentObject = object.parent
        if object.isFolder {
            info.associationType = 1
        }
        info.filename = object.name
        let date = PTPDateTime.format(object.modified)
        info.captureDate = date
        info.modificationDate = date
        return info
    }
}
