import Foundation
import PTP

/// The parts of a session that quirks change: requests refused, stalled or answered oddly before the
/// normal dispatch, and listings as a quirky camera builds them.
extension ResponderSession {
    /// An answer that replaces the normal one: `.some(nil)` stalls (no answer at all), nil goes on.
    func quirkyAnswer(_ command: PTPCommand) -> Answer?? {
        if !quirkState.acceptsTransaction(command) { return .some(.fail(.generalError)) }
        if !camera.operations.contains(command.code) {
            return .some(quirks.contains(.okUnknownOps) ? Answer() : .fail(.operationNotSupported))
        }
        if sessionID == nil && command.code == .getDeviceInfo && quirks.contains(.noDeviceInfoOutsideSession) {
            return .some(.fail(.sessionNotOpen))
        }
        if sessionID != nil && quirks.contains(.noAllStorages) && command.parameter(0) == 0xFFFF_FFFF
            && (command.code == .getObjectHandles || command.code == .getNumObjects)
        {
            return .some(.fail(.invalidStorageID))
        }
        if quirks.contains(.stallListing) && (command.code == .getObjectHandles || command.code == .getObjectPropList) {
            let folder = command.code == .getObjectHandles ? command.parameter(2) : command.parameter(0)
            // A property list from the root reaches below it too unless its Depth is 1.
            let deep = command.code == .getObjectPropList && (folder == 0xFFFF_FFFF || command.parameter(4) != 1)
            if deep || folder != 0 && folder != 0xFFFF_FFFF { return stalled(command, by: .stallListing) }
        }
        if sessionID != nil && quirks.contains(.noCard)
            && [.getStorageInfo, .getObjectHandles, .getNumObjects, .getObjectPropList].contains(command.code)
        {
            return .some(.fail(.storeNotAvailable))
        }
        if quirks.contains(.stallOpen) && command.code == .getDeviceInfo { return stalled(command, by: .stallOpen) }
        if quirks.contains(.stallClose) && command.code == .closeSession { return stalled(command, by: .stallClose) }
        if sessionID != nil && quirks.contains(.unreadableJPEG) && readsFirstJPEG(command) {
            return .some(.fail(.generalError))
        }
        if sessionID != nil, [.getObject, .getPartialObject, .getPartialObject64, .getThumb, .deleteObject, .getObjectPropValue]
            .contains(command.code), let object = card.object(command.parameter(0)), !quirkState.isKnown(object)
        {
            return .some(.fail(.invalidObjectHandle))
        }
        return nil
    }

    /// `drop-at-jpeg`: throws (which ends the session and closes the connection) before `command` reads a
    /// folder's first JPEG.
    func dropsConnection(before command: PTPCommand) throws {
        guard quirks.contains(.dropAtJPEG), sessionID != nil, readsFirstJPEG(command) else { return }
        camera.log("\(command.code): connection closed (\(Quirk.dropAtJPEG.rawValue))")
        throw PTPError.connectionClosed(.quirk("drop-at-jpeg"))
    }

    /// True when `command` reads the content of its folder's first JPEG.
    private func readsFirstJPEG(_ command: PTPCommand) -> Bool {
        guard [.getObject, .getPartialObject, .getPartialObject64].contains(command.code),
            let object = card.object(command.parameter(0))
        else { return false }
        return presentation.isFirstJPEG(object)
    }

    /// No answer to `command`, ever; said in the log, so that a test knows the initiator is waiting now.
    private func stalled(_ command: PTPCommand, by quirk: Quirk) -> Answer?? {
        camera.log("\(command.code) left unanswered (\(quirk.rawValue))")
        return .some(nil)
    }

    /// GetObjectHandles' answer after quirks: only known objects; a scan of the folder; a loop.
    func quirkyHandles(_ handles: [UInt32], parent: UInt32) -> [UInt32] {
        var result = handles
        if quirks.contains(.lazyHandles) {
            if parent != 0 { quirkState.markScanned(parent == 0xFFFF_FFFF ? 0 : parent) }
            result = result.filter { card.object($0).map(quirkState.isKnown) ?? false }
        }
        if quirks.contains(.handlesListSelf), parent != 0, parent != 0xFFFF_FFFF, let folder = card.object(parent) {
            result.append(parent)
            if folder.parent != 0 { result.append(folder.parent) }
        }
        return result
    }

    /// The property list of `handles` as this camera describes them, encoded as it is sent (a card of
    /// 100,000 objects makes some 1.5 million elements: neither they nor their 24 MB are held at once).
    func propList(of handles: [UInt32], properties: [ObjectPropertyCode], format: UInt32) -> Answer {
        Answer(data: propListSource(of: handles, properties: properties, format: format))
    }

    /// The rows of `handles` that the list shows (known objects of the format asked for), quirks applied.
    func propListSource(of handles: [UInt32], properties: [ObjectPropertyCode], format: UInt32) -> PropListSource {
        let encoding = PropListEncoding(properties: properties, quirks: quirks, card: card)
        let wantsVideo = encoding.wantsVideo
        let lazy = quirks.contains(.lazyHandles)
        let patchesNames = quirks.contains(.invalidUTF16)
        var rows: [PropListRow] = []
        rows.reserveCapacity(handles.count)
        var surrogateNames = Set<String>()
        for object in card.objects(handles) {
            guard let object, !lazy || quirkState.isKnown(object) else { continue }
            let shownFormat = presentation.format(of: object)
            if format != 0 && UInt32(shownFormat.rawValue) != format { continue }
            let name = presentation.name(of: object)
            if patchesNames && name != object.name && name.contains(ObjectPresentation.surrogateStandIn) {
                surrogateNames.insert(name)
            }
            rows.append(PropListRow(
                object: object, name: name, format: shownFormat, storageID: presentation.storageID(of: object),
                parent: presentation.parent(of: object), truncated: presentation.isTruncated(object),
                facts: wantsVideo ? videos.facts(for: object) : nil))
        }
        return PropListSource(rows: rows, encoding: encoding, surrogateNames: surrogateNames)
    }

    /// `proplist-lists-self`: the answer for the object asked about, whatever the depth; the root is a
    /// folder of handle 0 named "/", as uMTP-Responder reports it.
    func propListOfItself(_ handle: UInt32, properties: [ObjectPropertyCode]) -> Answer {
        guard handle == 0 || handle == 0xFFFF_FFFF else {
            guard card.object(handle) != nil else { return .fail(.invalidObjectHandle) }
            return propList(of: [handle], properties: properties, format: 0)
        }
        var elements: [ObjectPropList.Element] = []
        for code in properties {
            let value: PTPValue? = switch code {
            case .storageID: .uint32(card.storage.id)
            case .objectFormat: .uint16(ObjectFormatCode.association.rawValue)
            case .objectSize: .uint64(0)
            case .objectFileName, .name: .string("/")
            case .parentObject: .uint32(0)
            default: nil
            }
            if let value { elements.append(.init(handle: 0, property: code, value: value)) }
        }
        return .data(ObjectPropList(elements).encoded())
    }
}
