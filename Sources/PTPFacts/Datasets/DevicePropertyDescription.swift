/// A device property's description, the dataset of GetDevicePropDesc (PIMA 15740 section 5.5.2): its type,
/// whether it can be set, its factory default and current values, and what values it allows.
public struct DevicePropertyDescription: Equatable, Sendable {
    /// The values a property allows: any of its type, a range, or a list.
    public enum Form: Equatable, Sendable {
        case none
        case range(minimum: PTPValue, maximum: PTPValue, step: PTPValue)
        case enumeration([PTPValue])
    }

    public var code: DevicePropertyCode
    public var dataType: DataTypeCode
    public var writable: Bool
    public var factoryDefault: PTPValue
    public var current: PTPValue
    public var form: Form

    public init(
        code: DevicePropertyCode, dataType: DataTypeCode, writable: Bool, factoryDefault: PTPValue,
        current: PTPValue, form: Form = .none
    ) {
        self.code = code
        self.dataType = dataType
        self.writable = writable
        self.factoryDefault = factoryDefault
        self.current = current
        self.form = form
    }

    /// Decodes the dataset; a description whose values are of an unknown type is an error.
    public init(decoding bytes: [UInt8]) throws {
        var r = PTPReader(bytes, context: "DevicePropDesc")
        code = DevicePropertyCode(try r.uint16())
        dataType = DataTypeCode(rawValue: try r.uint16())
        let getSet = try r.uint8()
        guard getSet <= 1 else { throw r.fail(.invalidValue(field: "get/set flag", value: UInt64(getSet))) }
        writable = getSet == 1
        factoryDefault = try PTPValue.decode(dataType, from: &r)
        current = try PTPValue.decode(dataType, from: &r)
        switch try r.uint8() {
        case 0: form = .none
        case 1:
            form = .range(
                minimum: try PTPValue.decode(dataType, from: &r), maximum: try PTPValue.decode(dataType, from: &r),
                step: try PTPValue.decode(dataType, from: &r))
        case 2:
            let count = Int(try r.uint16())
            var values: [PTPValue] = []
            values.reserveCapacity(min(count, 1024))
            for _ in 0..<count { values.append(try PTPValue.decode(dataType, from: &r)) }
            form = .enumeration(values)
        case let other:
            throw r.fail(.invalidValue(field: "form flag", value: UInt64(other)))
        }
    }

    public func encoded() -> [UInt8] {
        var w = PTPWriter()
        w.uint16(code.rawValue)
        w.uint16(dataType.rawValue)
        w.uint8(writable ? 1 : 0)
        factoryDefault.encode(into: &w)
        current.encode(into: &w)
        switch form {
        case .none:
            w.uint8(0)
        case .range(let minimum, let maximum, let step):
            w.uint8(1)
            for v in [minimum, maximum, step] { v.encode(into: &w) }
        case .enumeration(let values):
            w.uint8(2)
            w.uint16(UInt16(min(values.count, Int(UInt16.max))))
            for v in values.prefix(Int(UInt16.max)) { v.encode(into: &w) }
        }
        return w.bytes
    }

    /// True when `value` has the property's type and fits its form (a range's bounds and step, a list).
    public func allows(_ value: PTPValue) -> Bool {
        guard value.dataType == dataType else { return false }
        switch form {
        case .none:
            return true
        case .enumeration(let values):
            return values.contains(value)
        case .range(let minimum, let maximum, let step):
            guard let v = value.signedValue, let lo = minimum.signedValue, let hi = maximum.signedValue else {
                return false
            }
            guard v >= lo, v <= hi else { return false }
            guard let s = step.signedValue, s > 0 else { return true }
            return (v - lo) % s == 0
        }
    }

    /// Decodes a value of this property's type, as SetDevicePropValue sends it; nil when the bytes are not one.
    public func value(decoding bytes: [UInt8]) -> PTPValue? {
        var r = PTPReader(bytes, context: "DevicePropValue")
        guard let value = try? PTPValue.decode(dataType, from: &r), r.isAtEnd else { return nil }
        return value
    }
}

extension PTPValue {
    /// The value as a signed integer when it is an integer that fits in 64 bits.
    public var signedValue: Int64? {
        switch self {
        case .int8(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .int64(let v): v
        case .uint8(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .uint64(let v): v <= UInt64(Int64.max) ? Int64(v) : nil
        default: nil
        }
    }

    /// A value of integer type `type` from `number`; nil when it does not fit or the type is not an integer.
    public static func integer(_ number: Int64, as type: DataTypeCode) -> PTPValue? {
        switch type {
        case .int8: Int8(exactly: number).map(PTPValue.int8)
        case .uint8: UInt8(exactly: number).map(PTPValue.uint8)
        case .int16: Int16(exactly: number).map(PTPValue.int16)
        case .uint16: UInt16(exactly: number).map(PTPValue.uint16)
        case .int32: Int32(exactly: number).map(PTPValue.int32)
        case .uint32: UInt32(exactly: number).map(PTPValue.uint32)
        case .int64: .int64(number)
        case .uint64: UInt64(exactly: number).map(PTPValue.uint64)
        default: nil
        }
    }
}
