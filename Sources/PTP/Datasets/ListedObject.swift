/// What a listing needs of one object, decoded straight from a GetObjectPropList answer: a few integers
/// and strings per object instead of a dictionary of `PTPValue`s, so that 100,000 objects (some 24 MB of
/// answer, nearly a million values) cost a compact array and one pass over the bytes.
///
/// Integers keep `PTPValue.unsignedValue`'s rule (any integer type, nil when negative or wider than 64
/// bits); strings are kept only when the device sent them as strings. A property sent twice for one
/// object keeps its last value, as a dictionary would.
public struct ListedObject: Sendable, Equatable {
    public var handle: UInt32
    public var storageID: UInt64?
    public var parent: UInt64?
    public var format: UInt64?
    public var size: UInt64?
    /// ObjectFileName (0xDC07).
    public var fileName: String?
    /// Name (0xDC44), which some devices send instead of the file name.
    public var name: String?
    public var dateCreated: String?
    public var dateModified: String?
    /// Milliseconds.
    public var duration: UInt64?
    public var width: UInt64?
    public var height: UInt64?
    public var framesPerThousandSeconds: UInt64?

    public init(handle: UInt32) { self.handle = handle }

    /// The name to show: the file name, else the object's name.
    public var displayName: String? { fileName ?? name }

    /// Decodes a whole GetObjectPropList answer into one record per object, in the order objects first
    /// appear (an object whose properties come in several runs is merged). Malformed data (a count
    /// larger than the bytes, a truncated value, a type whose length cannot be known) is an error.
    public static func decodeAll(_ bytes: [UInt8]) throws -> [ListedObject] {
        var r = PTPReader(bytes, context: "ObjectPropList")
        let count = Int(try r.uint32())
        guard count <= r.remaining / ObjectPropList.minimumElementSize else {
            throw PTPError.malformed("ObjectPropList: \(count) elements cannot fit in \(r.remaining) bytes")
        }
        var objects: [ListedObject] = []
        // Devices send an object's properties together: the table is consulted only when the handle changes.
        var place: [UInt32: Int] = [:]
        var current = -1
        for _ in 0..<count {
            let handle = try r.uint32()
            let property = ObjectPropertyCode(try r.uint16())
            let type = DataTypeCode(try r.uint16())
            if current < 0 || objects[current].handle != handle {
                if let known = place[handle] {
                    current = known
                } else {
                    current = objects.count
                    place[handle] = current
                    objects.append(ListedObject(handle: handle))
                }
            }
            try objects[current].read(property, type, from: &r)
        }
        return objects
    }

    /// Reads one value and keeps it when it is a property a listing uses; anything else is skipped.
    private mutating func read(_ property: ObjectPropertyCode, _ type: DataTypeCode, from r: inout PTPReader) throws {
        if type == .string {
            switch property {
            case .objectFileName: fileName = try r.string()
            case .name: name = try r.string()
            case .dateCreated: dateCreated = try r.string()
            case .dateModified: dateModified = try r.string()
            default:
                try r.skipString()
                keep(property, nil)
            }
            return
        }
        if type.isArray {
            guard let width = type.elementType.scalarWidth else {
                throw PTPError.malformed("\(r.context): array of unsupported type 0x\(hex4(type.rawValue))")
            }
            let count = Int(try r.uint32())
            guard count <= r.remaining / width else { throw PTPError.malformed("\(r.context): array of \(count) elements larger than its data") }
            try r.skip(count * width)
            keep(property, nil)
            return
        }
        keep(property, try Self.unsigned(type, from: &r))
    }

    private mutating func keep(_ property: ObjectPropertyCode, _ value: UInt64?) {
        switch property {
        case .storageID: storageID = value
        case .parentObject: parent = value
        case .objectFormat: format = value
        case .objectSize: size = value
        case .duration: duration = value
        case .width: width = value
        case .height: height = value
        case .framesPerThousandSeconds: framesPerThousandSeconds = value
        // A string property sent as a number is no string.
        case .objectFileName: fileName = nil
        case .name: name = nil
        case .dateCreated: dateCreated = nil
        case .dateModified: dateModified = nil
        default: break
        }
    }

    /// A scalar integer as `PTPValue.unsignedValue` sees it.
    private static func unsigned(_ type: DataTypeCode, from r: inout PTPReader) throws -> UInt64? {
        switch type.rawValue {
        case 0x1: let v = Int8(bitPattern: try r.uint8()); return v >= 0 ? UInt64(v) : nil
        case 0x2: return UInt64(try r.uint8())
        case 0x3: let v = Int16(bitPattern: try r.uint16()); return v >= 0 ? UInt64(v) : nil
        case 0x4: return UInt64(try r.uint16())
        case 0x5: let v = Int32(bitPattern: try r.uint32()); return v >= 0 ? UInt64(v) : nil
        case 0x6: return UInt64(try r.uint32())
        case 0x7: let v = Int64(bitPattern: try r.uint64()); return v >= 0 ? UInt64(v) : nil
        case 0x8: return try r.uint64()
        case 0x9, 0xA:
            let low = try r.uint64()
            return try r.uint64() == 0 ? low : nil
        default:
            throw PTPError.malformed("\(r.context): unsupported data type 0x\(hex4(type.rawValue))")
        }
    }
}
