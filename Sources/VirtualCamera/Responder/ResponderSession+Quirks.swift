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
        if sessionID != nil, [.getObject, .getPartialObject, .getPartialObject64, .getThumb, .deleteObject, .getObjectPropValue]
            .contains(command.code), let object = card.object(command.parameter(0)), !quirkState.isKnown(object)
        {
            return .some(.fail(.invalidObjectHandle))
        }
        return nil
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

    /// The property list of `handles` as this camera describes them, encoded as it is built (a card of
    /// 100,000 objects makes some 1.5 million elements: no array of them is held).
    func propList(of handles: [UInt32], properties: [ObjectPropertyCode], format: UInt32) -> Answer {
        var w = PTPWriter(capacity: 4 + handles.count * 24 * properties.count)
        w.uint32(0)
        var count: UInt32 = 0
        func element(_ h: UInt32, _ code: ObjectPropertyCode, _ value: PTPValue) {
            w.uint32(h)
            w.uint16(code.rawValue)
            w.uint16(value.dataType.rawValue)
            value.encode(into: &w)
            count += 1
        }
        let wantsVideo = properties.contains { ObjectProperties.videoOnly.contains($0) }
        // Files copied or touched together share their time: each distinct time is formatted once.
        var dates = ObjectProperties.DateStrings()
        var names: [String] = []
        for h in handles {
            guard let object = card.object(h), quirkState.isKnown(object) else { continue }
            let shownFormat = presentation.format(of: object)
            if format != 0 && UInt32(shownFormat.rawValue) != format { continue }
            let truncated = presentation.isTruncated(object)
            let name = presentation.name(of: object)
            if name != object.name { names.append(name) }
            let facts = wantsVideo ? videos.facts(for: object) : nil
            for code in properties {
                switch code {
                case .objectFileName, .name:
                    if !truncated { element(h, code, .string(name)) }
                case .objectFormat:
                    element(h, code, .uint16(shownFormat.rawValue))
                case .dateCreated, .dateModified:
                    element(h, code, .string(dates.format(object.modified)))
                case _ where ObjectProperties.videoOnly.contains(code):
                    guard let facts, let value = ObjectProperties.value(code, of: facts) else { continue }
                    let zero = quirks.contains(.zeroDimensions) && (code == .width || code == .height)
                    element(h, code, zero ? .uint32(0) : value)
                default:
                    if let value = ObjectProperties.value(code, of: object, card: card) { element(h, code, value) }
                }
            }
        }
        w.patchUInt32(count, at: 0)
        var bytes = w.bytes
        for name in Set(names) { bytes = ObjectPresentation.withUnpairedSurrogate(bytes, name: name) }
        return .data(bytes)
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
