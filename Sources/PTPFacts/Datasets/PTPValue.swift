/// A typed value as PTP encodes it in property lists and property descriptions.
public enum PTPValue: Equatable, Hashable, Sendable {
    case int8(Int8), uint8(UInt8), int16(Int16), uint16(UInt16), int32(Int32), uint32(UInt32)
    case int64(Int64), uint64(UInt64)
    /// 128-bit values as two halves, low first (persistent unique identifiers).
    case int128(low: UInt64, high: UInt64), uint128(low: UInt64, high: UInt64)
    case string(String)
    case array(element: DataTypeCode, [PTPValue])

    public var dataType: DataTypeCode {
        switch self {
        case .int8: .int8
        case .uint8: .uint8
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .int128: .int128
        case .uint128: .uint128
        case .string: .string
        case .array(let element, _): DataTypeCode(0x4000 | element.rawValue)
        }
    }

    /// The value as an unsigned integer when it is a non-negative integer of 64 bits or fewer.
    public var unsignedValue: UInt64? {
        switch self {
        case .uint8(let v): UInt64(v)
        case .uint16(let v): UInt64(v)
        case .uint32(let v): UInt64(v)
        case .uint64(let v): v
        case .int8(let v): v >= 0 ? UInt64(v) : nil
        case .int16(let v): v >= 0 ? UInt64(v) : nil
        case .int32(let v): v >= 0 ? UInt64(v) : nil
        case .int64(let v): v >= 0 ? UInt64(v) : nil
        case .uint128(let low, let high), .int128(let low, let high): high == 0 ? low : nil
        default: nil
        }
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// Decodes one value of `type`. Unknown types are an error: their length cannot be known.
    public static func decode(_ type: DataTypeCode, from r: inout PTPReader) throws -> PTPValue {
        if type == .string { return .string(try r.string()) }
        if type.isArray {
            let element = type.elementType
            guard let width = element.scalarWidth else {
                throw r.fail(.unsupportedDataType(type.rawValue, array: true))
            }
            let values = try r.array(elementSize: width) { try decodeScalar(element, from: &$0) }
            return .array(element: element, values)
        }
        return try decodeScalar(type, from: &r)
    }

    static func decodeScalar(_ type: DataTypeCode, from r: inout PTPReader) throws -> PTPValue {
        switch type {
        case .int8: return .int8(Int8(bitPattern: try r.uint8()))
        case .uint8: return .uint8(try r.uint8())
        case .int16: return .int16(Int16(bitPattern: try r.uint16()))
        case .uint16: return .uint16(try r.uint16())
        case .int32: return .int32(Int32(bitPattern: try r.uint32()))
        case .uint32: return .uint32(try r.uint32())
        case .int64: return .int64(Int64(bitPattern: try r.uint64()))
        case .uint64: return .uint64(try r.uint64())
        case .int128: return .int128(low: try r.uint64(), high: try r.uint64())
        case .uint128: return .uint128(low: try r.uint64(), high: try r.uint64())
        default:
            throw r.fail(.unsupportedDataType(type.rawValue, array: false))
        }
    }

    public func encode(into w: inout PTPWriter) {
        switch self {
        case .int8(let v): w.uint8(UInt8(bitPattern: v))
        case .uint8(let v): w.uint8(v)
        case .int16(let v): w.uint16(UInt16(bitPattern: v))
        case .uint16(let v): w.uint16(v)
        case .int32(let v): w.uint32(UInt32(bitPattern: v))
        case .uint32(let v): w.uint32(v)
        case .int64(let v): w.uint64(UInt64(bitPattern: v))
        case .uint64(let v): w.uint64(v)
        case .int128(let low, let high), .uint128(let low, let high):
            w.uint64(low)
            w.uint64(high)
        case .string(let s): w.string(s)
        case .array(_, let values):
            w.uint32(UInt32(values.count))
            for v in values { v.encode(into: &w) }
        }
    }
}
