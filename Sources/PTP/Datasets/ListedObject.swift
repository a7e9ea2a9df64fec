/// What a listing needs of one object, decoded straight from a GetObjectPropList answer: a few integers
/// and strings per object instead of a dictionary of `PTPValue`s, so that 100,000 objects (some 24 MB of
/// answer, nearly a million values) cost a compact array and one pass over the bytes.
///
/// Integers keep `PTPValue.unsignedValue`'s rule (any integer type, nil when negative or wider than 64
/// bits); strings are kept only when the device sent them as strings. A property sent twice for one
/// object keeps its last value, as a dictionary would.
public struct ListedObject: Sendable, Equatable {
    public var handle: UInt32
    public var storageID: UInt64? { get { number(0) } set { setNumber(0, newValue) } }
    public var parent: UInt64? { get { number(1) } set { setNumber(1, newValue) } }
    public var format: UInt64? { get { number(2) } set { setNumber(2, newValue) } }
    public var size: UInt64? { get { number(3) } set { setNumber(3, newValue) } }
    /// Milliseconds.
    public var duration: UInt64? { get { number(4) } set { setNumber(4, newValue) } }
    public var width: UInt64? { get { number(5) } set { setNumber(5, newValue) } }
    public var height: UInt64? { get { number(6) } set { setNumber(6, newValue) } }
    public var framesPerThousandSeconds: UInt64? { get { number(7) } set { setNumber(7, newValue) } }
    /// ObjectFileName (0xDC07).
    public var fileName: String?
    /// Name (0xDC44), which some devices send instead of the file name.
    public var name: String?
    public var dateCreated: String?
    public var dateModified: String?
    /// The integers, with a bit each saying which were sent (eight optionals would take twice the room,
    /// times 100,000 objects).
    private var numbers: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var present: UInt8 = 0

    public init(handle: UInt32) { self.handle = handle }

    private func number(_ index: Int) -> UInt64? {
        guard present & 1 << index != 0 else { return nil }
        return withUnsafeBytes(of: numbers) { $0.load(fromByteOffset: index * 8, as: UInt64.self) }
    }

    private mutating func setNumber(_ index: Int, _ value: UInt64?) {
        if let value {
            present |= 1 << index
            withUnsafeMutableBytes(of: &numbers) { $0.storeBytes(of: value, toByteOffset: index * 8, as: UInt64.self) }
        } else {
            present &= ~(1 << index)
        }
    }

    public static func == (a: ListedObject, b: ListedObject) -> Bool {
        a.handle == b.handle && a.fileName == b.fileName && a.name == b.name && a.dateCreated == b.dateCreated
            && a.dateModified == b.dateModified && (0..<8).allSatisfy { a.number($0) == b.number($0) }
    }

    /// The name to show: the file name, else the object's name.
    public var displayName: String? { fileName ?? name }

    /// Decodes a whole GetObjectPropList answer into one record per object, in the order objects first
    /// appear (an object whose properties come in several runs is merged). Malformed data (a count
    /// larger than the bytes, a truncated value, a type whose length cannot be known) is an error.
    /// (A listing decodes as its bytes arrive: `ListedObjectDecoder`.)
    public static func decodeAll(_ bytes: [UInt8]) throws -> [ListedObject] {
        let decoder = ListedObjectDecoder(limit: max(bytes.count, 1))
        try decoder.begin(expectedLength: UInt64(bytes.count))
        try bytes.withUnsafeBytes { try decoder.write($0) }
        return try decoder.finish()
    }

    /// Reads one value and keeps it when it is a property a listing uses; anything else is skipped.
    mutating func read(_ property: ObjectPropertyCode, _ type: DataTypeCode, from r: inout PTPReader) throws {
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
                throw r.fail(.unsupportedDataType(type.rawValue, array: true))
            }
            let count = Int(try r.uint32())
            guard count <= r.remaining / width else { throw r.fail(.countExceedsRoom(count: count, room: r.remaining)) }
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
            throw r.fail(.unsupportedDataType(type.rawValue, array: false))
        }
    }
}
