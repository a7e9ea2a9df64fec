import PTP

/// Fuji's event list (device property 0xD212): what changed since the last read, as pairs of a u16 code
/// and a u32 value. Property codes mean "this property now has this value"; event codes (0x4xxx, 0xCxxx)
/// mean that event with the value as its parameter (ObjectAdded with the new handle, CaptureComplete).
public enum FujiEventList {
    public struct Entry: Equatable, Sendable {
        public var code: UInt16
        public var value: UInt32
        public init(code: UInt16, value: UInt32) {
            self.code = code
            self.value = value
        }
    }

    /// Decodes the property's value. An empty value is no change; a count the bytes cannot hold is
    /// malformed (never read past the end).
    public static func decode(_ bytes: [UInt8]) throws -> [Entry] {
        if bytes.isEmpty { return [] }
        var r = PTPReader(bytes, context: "Fuji event list (0xD212)")
        let count = Int(try r.uint16())
        guard count * 6 <= r.remaining else {
            throw r.fail(.countExceedsRoom(count: count, room: r.remaining))
        }
        return try (0..<count).map { _ in Entry(code: try r.uint16(), value: try r.uint32()) }
    }

    /// The entries as standard events: event codes as themselves with the value as parameter; property
    /// codes as DevicePropChanged (property, value).
    public static func events(_ entries: [Entry]) -> [PTPEvent] {
        entries.map { entry in
            let isEvent = entry.code & 0xF000 == 0x4000 || entry.code & 0xF000 == 0xC000
            if isEvent { return PTPEvent(EventCode(rawValue: entry.code), parameters: [entry.value]) }
            return PTPEvent(.devicePropChanged, parameters: [UInt32(entry.code), entry.value])
        }
    }
}
