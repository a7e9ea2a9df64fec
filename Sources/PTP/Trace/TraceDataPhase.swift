import Foundation

/// What a trace shows of one data phase: how many raw bytes, and the dataset decoded into detail lines
/// (names redacted when asked), so that a trace reads without a hex decoder and the PTP spec at hand.
enum TraceDataPhase {
    /// At most this many objects of one GetObjectPropList answer are written out.
    static let maximumObjectsShown = 50
    /// At most this many handles or storage ids of one answer are written out.
    static let maximumIDsShown = 64

    /// Raw bytes of `operation`'s data that may be shown: all of the first bytes normally; with names
    /// redacted, only for data that holds no names (id lists), and a few for file contents (their kind).
    static func shownBytes(_ operation: OperationCode, redacted: Bool) -> Int {
        guard redacted else { return PTPTrace.firstBytes }
        switch operation {
        case .getStorageIDs, .getObjectHandles, .getObjectPropsSupported: return PTPTrace.firstBytes
        case .getObject, .getPartialObject, .getPartialObject64, .getThumb, .sendObject:
            return PTPTrace.redactedContentBytes
        default: return 0
        }
    }

    /// How many bytes to keep for decoding: the whole dataset where the trace decodes it.
    static func keptBytes(_ operation: OperationCode) -> Int {
        switch operation {
        case .getDeviceInfo, .getStorageInfo, .getObjectInfo, .sendObjectInfo, .getStorageIDs: return 1 << 20
        case .getObjectHandles, .getObjectPropList: return 32 << 20
        default: return PTPTrace.firstBytes
        }
    }

    /// The dataset decoded, one line per fact; empty for data the trace does not decode. `complete` is
    /// false when the data phase was cut short or longer than `keptBytes`.
    static func details(_ operation: OperationCode, _ bytes: [UInt8], complete: Bool, redactor: TraceRedactor?) -> [String] {
        guard complete else { return [] }
        do {
            switch operation {
            case .getDeviceInfo: return describe(try DeviceInfo(decoding: bytes), redactor)
            case .getStorageInfo: return [describe(try StorageInfo(decoding: bytes), redactor)]
            case .getObjectInfo, .sendObjectInfo: return [describe(try ObjectInfo(decoding: bytes), redactor)]
            case .getObjectPropList: return describe(try ObjectPropList(decoding: bytes), redactor)
            case .getStorageIDs, .getObjectHandles:
                var reader = PTPReader(bytes, context: "\(operation)")
                return [ids(try reader.uint32Array(), label: operation == .getStorageIDs ? "storage ids" : "handles")]
            default: return []
            }
        } catch {
            return ["undecodable: \(error)"]
        }
    }

    static func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16, uppercase: true) }

    static func ids(_ values: [UInt32], label: String) -> String {
        let shown = values.prefix(maximumIDsShown).map(hex).joined(separator: " ")
        let more = values.count > maximumIDsShown ? " … \(values.count - maximumIDsShown) more" : ""
        return "\(label) (\(values.count)): \(shown)\(more)"
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value):
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func describe(_ info: DeviceInfo, _ redactor: TraceRedactor?) -> [String] {
        let serial = redactor?.serial(info.serialNumber) ?? info.serialNumber
        return [
            "DeviceInfo: manufacturer \(quoted(info.manufacturer)) model \(quoted(info.model))"
                + " version \(quoted(info.deviceVersion)) serial \(quoted(serial))"
                + " standard \(info.standardVersion) extension \(hex(info.vendorExtensionID))"
                + " \(quoted(info.vendorExtensionDescription)) mode \(info.functionalMode)",
            "operations (\(info.operationsSupported.count)): "
                + info.operationsSupported.map { "\($0)" }.joined(separator: " "),
            "events (\(info.eventsSupported.count)): " + info.eventsSupported.map { "\($0)" }.joined(separator: " "),
            "device properties (\(info.devicePropertiesSupported.count)): "
                + info.devicePropertiesSupported.map { hex(UInt32($0.rawValue)) }.joined(separator: " "),
            "capture formats: " + info.captureFormats.map { hex(UInt32($0.rawValue)) }.joined(separator: " ")
                + "; image formats: " + info.imageFormats.map { hex(UInt32($0.rawValue)) }.joined(separator: " "),
        ]
    }

    static func describe(_ info: StorageInfo, _ redactor: TraceRedactor?) -> String {
        let description = redactor?.text(info.storageDescription) ?? info.storageDescription
        let label = redactor?.text(info.volumeLabel) ?? info.volumeLabel
        return "StorageInfo: type \(hex(UInt32(info.storageType))) filesystem \(hex(UInt32(info.filesystemType)))"
            + " access \(hex(UInt32(info.accessCapability))) capacity \(info.maxCapacity) free \(info.freeSpaceInBytes)"
            + " free objects \(hex(info.freeSpaceInImages)) description \(quoted(description)) label \(quoted(label))"
    }

    static func describe(_ info: ObjectInfo, _ redactor: TraceRedactor?) -> String {
        let name = redactor?.name(info.filename) ?? info.filename
        let keywords = redactor?.text(info.keywords) ?? info.keywords
        return "ObjectInfo: \(quoted(name)) format \(hex(UInt32(info.format.rawValue))) size \(info.size)"
            + (info.wideCompressedSize == nil ? "" : " (64-bit size field: every later field 4 bytes on)")
            + " storage \(hex(info.storageID)) parent \(hex(info.parentObject))"
            + " association \(hex(UInt32(info.associationType)))/\(hex(info.associationDescription))"
            + " thumb \(hex(UInt32(info.thumbFormat.rawValue)))/\(info.thumbCompressedSize) \(info.thumbPixWidth)x\(info.thumbPixHeight)"
            + " image \(info.imagePixWidth)x\(info.imagePixHeight)x\(info.imageBitDepth)"
            + " protection \(info.protectionStatus) sequence \(info.sequenceNumber)"
            + " captured \(quoted(info.captureDate)) modified \(quoted(info.modificationDate)) keywords \(quoted(keywords))"
    }

    static func describe(_ list: ObjectPropList, _ redactor: TraceRedactor?) -> [String] {
        let objects = list.byObject()
        var lines = ["ObjectPropList: \(list.elements.count) elements for \(objects.count) objects"]
        var order: [UInt32: [ObjectPropList.Element]] = [:]
        for element in list.elements { order[element.handle, default: []].append(element) }
        for object in objects.prefix(maximumObjectsShown) {
            let properties = (order[object.handle] ?? []).map { element in
                "\(TracePropertyName.of(element.property))=\(value(element, redactor))"
            }
            lines.append("\(hex(object.handle)): " + properties.joined(separator: " "))
        }
        if objects.count > maximumObjectsShown { lines.append("… \(objects.count - maximumObjectsShown) more objects") }
        return lines
    }

    /// A property's value; with redaction, every string but a date is replaced (names, keywords, artists).
    static func value(_ element: ObjectPropList.Element, _ redactor: TraceRedactor?) -> String {
        switch element.value {
        case .string(let text):
            guard let redactor else { return quoted(text) }
            switch element.property {
            case .dateCreated, .dateModified: return quoted(text)
            case .objectFileName, .name: return quoted(redactor.name(text))
            default: return quoted(redactor.text(text))
            }
        case .array(_, let values): return "[\(values.count) values]"
        case .uint128(let low, let high), .int128(let low, let high):
            return "0x" + String(format: "%016llX%016llX", high, low)
        default:
            if let number = element.value.unsignedValue { return hex(UInt32(truncatingIfNeeded: number)) + (number > UInt32.max ? "+" : "") }
            return "\(element.value)"
        }
    }
}
