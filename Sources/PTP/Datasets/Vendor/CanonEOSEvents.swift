/// What a Canon EOS body's GetEvent (0x9116) answers: a run of records, each `u32 size, u32 type` and a
/// payload, ended by an 8-byte record of type 0. Layouts are libgphoto2's (`ptp-pack.c`,
/// `ptp_unpack_CANON_changes`). Both sides use this file: the client decodes, the `canon-eos` persona encodes.
public enum CanonEOSEvent: Equatable, Sendable {
    /// ObjectAddedEx (0xC181): a new object, described in the record itself.
    case objectAdded(CanonEOSObject)
    /// ObjectRemoved (0xC182).
    case objectRemoved(handle: UInt32)
    /// ObjectInfoChangedEx (0xC187).
    case objectChanged(CanonEOSObject)
    /// RequestObjectTransfer (0xC186): a shot taken into the body's memory waits to be downloaded.
    case transferRequested(handle: UInt32, format: ObjectFormatCode, size: UInt32, name: String)
    /// PropValueChanged (0xC189): a property's current value, as the body packs it (integers little-endian
    /// in a 4-byte slot, strings NUL-terminated).
    case propertyValue(DevicePropertyCode, [UInt8])
    /// AvailListChanged (0xC18A): the values a property allows (form 3: an enumeration of u32 slots).
    case allowedValues(DevicePropertyCode, form: UInt32, values: [UInt32])
    /// CameraStatusChanged (0xC18B): 1 busy, 0 ready.
    case cameraStatus(UInt32)
    /// StoreAdded (0xC192), StoreRemoved (0xC193), StorageInfoChanged (0xC185), StorageStatusChanged (0xC184).
    case storesChanged(type: UInt32, storage: UInt32)
    /// Any other record, kept whole (its type and payload), so `events` can show it by code.
    case other(type: UInt32, payload: [UInt8])

    public static let objectAddedType: UInt32 = 0xC181
    public static let objectRemovedType: UInt32 = 0xC182
    public static let storageStatusChangedType: UInt32 = 0xC184
    public static let storageInfoChangedType: UInt32 = 0xC185
    public static let requestObjectTransferType: UInt32 = 0xC186
    public static let objectInfoChangedType: UInt32 = 0xC187
    public static let propValueChangedType: UInt32 = 0xC189
    public static let availListChangedType: UInt32 = 0xC18A
    public static let cameraStatusChangedType: UInt32 = 0xC18B
    public static let storeAddedType: UInt32 = 0xC192
    public static let storeRemovedType: UInt32 = 0xC193
}

/// An object as an ObjectAddedEx record describes it.
public struct CanonEOSObject: Equatable, Sendable {
    public var handle: UInt32
    /// As the body writes it: not always one of its stores (vcam's personas write 0x10000001).
    public var storageID: UInt32
    public var format: ObjectFormatCode
    public var size: UInt32
    public var parent: UInt32
    public var name: String

    public init(handle: UInt32, storageID: UInt32, format: ObjectFormatCode, size: UInt32, parent: UInt32, name: String) {
        self.handle = handle
        self.storageID = storageID
        self.format = format
        self.size = size
        self.parent = parent
        self.name = name
    }
}

extension CanonEOSEvent {
    /// The most records one answer is decoded into (a body floods a few hundred after SetEventMode).
    public static let maximumRecords = 10_000

    /// Decodes a GetEvent answer. Hostile bytes end the decoding (what came before is kept): a record
    /// shorter than its header, or longer than what is left, is where the answer stops, as in libgphoto2.
    /// An empty answer (some bodies send no data phase when nothing changed) is no records.
    public static func decode(_ bytes: [UInt8]) -> [CanonEOSEvent] {
        var events: [CanonEOSEvent] = []
        var offset = 0
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        while offset + 8 <= bytes.count, events.count < maximumRecords {
            let size = Int(u32(offset))
            let type = u32(offset + 4)
            guard size >= 8, size <= bytes.count - offset else { break }
            if type == 0 { break }
            let end = offset + size
            let payload = Array(bytes[(offset + 8)..<end])
            func cString(from start: Int) -> String {
                guard start < end else { return "" }
                let slice = bytes[start..<end]
                let stop = slice.firstIndex(of: 0) ?? end
                return String(decoding: bytes[start..<stop], as: UTF8.self)
            }
            switch type {
            case objectAddedType, objectInfoChangedType:
                guard size >= 0x28 else {
                    events.append(.other(type: type, payload: payload))
                    break
                }
                let object = CanonEOSObject(
                    handle: u32(offset + 8), storageID: u32(offset + 0x0C), format: ObjectFormatCode(u16(offset + 0x10)),
                    size: u32(offset + 0x1C), parent: u32(offset + 0x20), name: cString(from: offset + 0x28))
                events.append(type == objectAddedType ? .objectAdded(object) : .objectChanged(object))
            case objectRemovedType where size >= 12:
                events.append(.objectRemoved(handle: u32(offset + 8)))
            case requestObjectTransferType where size >= 0x1C:
                events.append(.transferRequested(
                    handle: u32(offset + 8), format: ObjectFormatCode(u16(offset + 0x0C)), size: u32(offset + 0x14),
                    name: cString(from: offset + 0x1C)))
            case propValueChangedType where size >= 12:
                let code = DevicePropertyCode(UInt16(truncatingIfNeeded: u32(offset + 8)))
                events.append(.propertyValue(code, Array(bytes[(offset + 12)..<end])))
            case availListChangedType where size >= 0x14:
                let code = DevicePropertyCode(UInt16(truncatingIfNeeded: u32(offset + 8)))
                let form = u32(offset + 0x0C)
                let count = Int(u32(offset + 0x10))
                let room = (end - (offset + 0x14)) / 4
                let values = (0..<min(count, room)).map { u32(offset + 0x14 + 4 * $0) }
                events.append(.allowedValues(code, form: form, values: values))
            case cameraStatusChangedType where size >= 12:
                events.append(.cameraStatus(u32(offset + 8)))
            case storeAddedType, storeRemovedType, storageInfoChangedType, storageStatusChangedType:
                events.append(.storesChanged(type: type, storage: size >= 12 ? u32(offset + 8) : 0))
            default:
                events.append(.other(type: type, payload: payload))
            }
            offset = end
        }
        return events
    }

    /// Encodes records as a body sends them, the end record included.
    public static func encode(_ events: [CanonEOSEvent]) -> [UInt8] {
        var w = PTPWriter(capacity: 64 * max(1, events.count))
        for event in events { event.encode(into: &w) }
        w.uint32(8)
        w.uint32(0)
        return w.bytes
    }

    private func encode(into w: inout PTPWriter) {
        var body = PTPWriter()
        let type: UInt32
        switch self {
        case .objectAdded(let object), .objectChanged(let object):
            if case .objectAdded = self { type = Self.objectAddedType } else { type = Self.objectInfoChangedType }
            body.uint32(object.handle)  // 0x08
            body.uint32(object.storageID)  // 0x0C
            body.uint16(object.format.rawValue)  // 0x10
            body.uint16(0)
            body.uint32(0)  // 0x14
            body.uint32(0)  // 0x18
            body.uint32(object.size)  // 0x1C
            body.uint32(object.parent)  // 0x20
            body.uint32(0)  // 0x24
            body.raw(Array(object.name.utf8) + [0])  // 0x28
        case .objectRemoved(let handle):
            type = Self.objectRemovedType
            body.uint32(handle)
        case .transferRequested(let handle, let format, let size, let name):
            type = Self.requestObjectTransferType
            body.uint32(handle)  // 0x08
            body.uint16(format.rawValue)  // 0x0C
            body.uint16(0)
            body.uint32(0)  // 0x10
            body.uint32(size)  // 0x14
            body.uint32(0)  // 0x18
            body.raw(Array(name.utf8) + [0])  // 0x1C
        case .propertyValue(let code, let value):
            type = Self.propValueChangedType
            body.uint32(UInt32(code.rawValue))
            body.raw(value)
        case .allowedValues(let code, let form, let values):
            type = Self.availListChangedType
            body.uint32(UInt32(code.rawValue))
            body.uint32(form)
            body.uint32(UInt32(values.count))
            for v in values { body.uint32(v) }
        case .cameraStatus(let status):
            type = Self.cameraStatusChangedType
            body.uint32(status)
        case .storesChanged(let storeType, let storage):
            type = storeType
            body.uint32(storage)
        case .other(let otherType, let payload):
            type = otherType
            body.raw(payload)
        }
        w.uint32(UInt32(8 + body.bytes.count))
        w.uint32(type)
        w.raw(body.bytes)
    }
}
