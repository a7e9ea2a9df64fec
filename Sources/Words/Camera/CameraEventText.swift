import CameraFacts
import Foundation
import PTPFacts

/// One camera event as `events` prints it: the event's name, then what it is about in the user's terms
/// (a file's path, a property's name and new value, a store's id), or the raw parameters of a code this
/// program does not know; and the same as one JSON object for scripts.
public struct CameraEventText: Encodable {
    public var event: String
    public var code: String
    public var handle: String?
    public var path: String?
    public var property: String?
    public var value: String?
    public var storage: String?
    var parameters: [String]?

    /// Describes `event`; `path` is the file's path as the catalog knew it when the event came (a removed
    /// file is gone from it by now), `property` reads a changed property's new value from the camera.
    public init(_ event: PTPEvent, path: String?, property: (DevicePropertyCode) -> (name: String, value: String?)) {
        self.event = event.code.description
        code = "0x" + Self.hex(UInt32(event.code.rawValue), digits: 4)
        switch event.code {
        case .objectAdded, .objectRemoved, .objectInfoChanged, .requestObjectTransfer:
            handle = "0x" + Self.hex(event.parameter(0), digits: 8)
            self.path = path.map(RemotePath.display)
        case .devicePropChanged:
            let described = property(DevicePropertyCode(UInt16(truncatingIfNeeded: event.parameter(0))))
            self.property = described.name
            value = described.value
        case .storeAdded, .storeRemoved, .storeFull, .storageInfoChanged:
            storage = "0x" + Self.hex(event.parameter(0), digits: 8)
        case .captureComplete, .deviceInfoChanged, .deviceReset:
            break
        default:
            parameters = event.parameters.map { "0x" + Self.hex($0, digits: 8) }
        }
    }

    /// `ObjectAdded /DCIM/100MEDIA/DJI_0007.JPG`, `DevicePropChanged whitebalance daylight`.
    public var line: String {
        var words = [event]
        if let path { words.append(path) } else if let handle { words.append(handle) }
        if let property { words.append(property) }
        if let value { words.append(value) }
        if let storage { words.append(storage) }
        if let parameters, !parameters.isEmpty { words.append(parameters.joined(separator: " ")) }
        return words.joined(separator: " ")
    }

    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
