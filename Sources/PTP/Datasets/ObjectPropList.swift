/// The answer to MTP's GetObjectPropList: (object, property, value) triples for many objects at once,
/// which lets a listing take one round trip instead of one per file.
public struct ObjectPropList: Equatable, Sendable {
    public struct Element: Equatable, Sendable {
        public var handle: UInt32
        public var property: ObjectPropertyCode
        public var value: PTPValue
        public init(handle: UInt32, property: ObjectPropertyCode, value: PTPValue) {
            self.handle = handle
            self.property = property
            self.value = value
        }
    }

    public var elements: [Element]

    public init(_ elements: [Element] = []) { self.elements = elements }

    /// Smallest encoded element: handle, property code, data type, one byte of value.
    static let minimumElementSize = 4 + 2 + 2 + 1

    public init(decoding bytes: [UInt8]) throws {
        var r = PTPReader(bytes, context: "ObjectPropList")
        let count = Int(try r.uint32())
        guard count <= r.remaining / Self.minimumElementSize else {
            throw r.fail(.countExceedsRoom(count: count, room: r.remaining))
        }
        var elements = [Element]()
        elements.reserveCapacity(count)
        for _ in 0..<count {
            let handle = try r.uint32()
            let property = ObjectPropertyCode(try r.uint16())
            let type = DataTypeCode(try r.uint16())
            elements.append(Element(handle: handle, property: property, value: try PTPValue.decode(type, from: &r)))
        }
        self.elements = elements
    }

    public func encoded() -> [UInt8] {
        var w = PTPWriter(capacity: 4 + elements.count * 24)
        w.uint32(UInt32(elements.count))
        for e in elements {
            w.uint32(e.handle)
            w.uint16(e.property.rawValue)
            w.uint16(e.value.dataType.rawValue)
            e.value.encode(into: &w)
        }
        return w.bytes
    }

    /// The elements grouped by object, in the order objects first appear.
    public func byObject() -> [(handle: UInt32, properties: [ObjectPropertyCode: PTPValue])] {
        var groups: [(handle: UInt32, properties: [ObjectPropertyCode: PTPValue])] = []
        var place: [UInt32: Int] = [:]
        var current = -1
        for e in elements {
            // Devices send an object's properties together: look the handle up only when it changes.
            if current < 0 || groups[current].handle != e.handle {
                if let known = place[e.handle] {
                    current = known
                } else {
                    current = groups.count
                    place[e.handle] = current
                    groups.append((e.handle, [:]))
                }
            }
            groups[current].properties[e.property] = e.value
        }
        return groups
    }
}
