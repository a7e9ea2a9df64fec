import PTP

/// What an EOS property's bytes in a GetEvent record mean: its data type and whether it can be set, as
/// libgphoto2's `ptp-pack.c` assigns them (the body says neither). Integers sit in a 4-byte slot whatever
/// their type; strings end with a NUL.
enum CanonEOSProperties {
    static let uint16: Set<UInt16> = [
        0xD101, 0xD102, 0xD103, 0xD105, 0xD106, 0xD108, 0xD10F, 0xD111, 0xD112, 0xD119, 0xD11A, 0xD11D, 0xD1B0,
        0xD1B1, 0xD1B8,
    ]
    static let uint8: Set<UInt16> = [0xD104, 0xD107, 0xD109, 0xD110]
    static let uint32: Set<UInt16> = [
        0xD10A, 0xD10D, 0xD10E, 0xD113, 0xD114, 0xD116, 0xD11B, 0xD11C, 0xD11E, 0xD11F, 0xD1AC,
    ]
    static let int32: Set<UInt16> = [0xD10B, 0xD10C]
    static let string: Set<UInt16> = [0xD115, 0xD125, 0xD1AF, 0xD1D0, 0xD1D1, 0xD1D8]
    /// Standard properties whose records carry a PTP string (a count, then UTF-16), as petabyt/vcam's
    /// bodies report 0x5003 and 0xD406.
    static let ptpStrings: Set<UInt16> = [0x5003, 0x5011, 0x5012, 0xD402, 0xD406]
    /// Read-only (libgphoto2's list of properties it marks Get only; 0x5001 the standard battery level).
    static let readOnly: Set<UInt16> = [
        0x5001, 0xD108, 0xD111, 0xD112, 0xD116, 0xD119, 0xD11A, 0xD11B, 0xD11E, 0xD11F, 0xD1AF, 0xD1AC, 0xD1B8, 0xD1D8,
    ]

    /// The data type of `code`; for a code not in the tables (a standard property some bodies report in
    /// their records, as petabyt/vcam's do with 0x5001), from the value's length: 1, 2 or 4 bytes an
    /// integer that wide, nil (not shown) otherwise.
    static func type(of code: DevicePropertyCode, valueLength: Int) -> DataTypeCode? {
        let raw = code.rawValue
        if uint16.contains(raw) { return .uint16 }
        if uint8.contains(raw) { return .uint8 }
        if uint32.contains(raw) { return .uint32 }
        if int32.contains(raw) { return .int32 }
        if string.contains(raw) { return .string }
        if ptpStrings.contains(raw) { return .string }
        switch valueLength {
        case 1: return .uint8
        case 2: return .uint16
        case 4: return .uint32
        default: return nil
        }
    }

    /// The value of a record as `type`; nil when the bytes are too short for it.
    static func value(_ bytes: [UInt8], as type: DataTypeCode) -> PTPValue? {
        if type == .string {
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return .string(String(decoding: bytes[..<end], as: UTF8.self))
        }
        guard bytes.count >= 1 else { return nil }
        var slot: UInt32 = 0
        for (i, b) in bytes.prefix(4).enumerated() { slot |= UInt32(b) << (8 * UInt32(i)) }
        switch type {
        case .uint8: return .uint8(UInt8(truncatingIfNeeded: slot))
        case .uint16: return .uint16(UInt16(truncatingIfNeeded: slot))
        case .int32: return .int32(Int32(bitPattern: slot))
        default: return .uint32(slot)
        }
    }

    /// A description from what the records said: the current value, and the allowed values as an
    /// enumeration when the body listed them.
    static func describe(_ code: DevicePropertyCode, value bytes: [UInt8], allowed: [UInt32]?) -> DevicePropertyDescription? {
        guard let type = type(of: code, valueLength: bytes.count) else { return nil }
        let current: PTPValue
        if ptpStrings.contains(code.rawValue) {
            var r = PTPReader(bytes, context: "EOS property 0x\(String(code.rawValue, radix: 16))")
            guard let text = try? r.string() else { return nil }
            current = .string(text)
        } else {
            guard let decoded = value(bytes, as: type) else { return nil }
            current = decoded
        }
        let form: DevicePropertyDescription.Form
        if let allowed, !allowed.isEmpty, type != .string {
            form = .enumeration(allowed.compactMap { v in value([UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)], as: type) })
        } else {
            form = .none
        }
        return DevicePropertyDescription(
            code: code, dataType: type, writable: !readOnly.contains(code.rawValue), factoryDefault: current,
            current: current, form: form)
    }

    /// A value packed as SetDevicePropValueEx and the records carry it.
    static func pack(_ value: PTPValue) -> [UInt8] {
        var w = PTPWriter()
        switch value {
        case .string(let text): w.raw(Array(text.utf8) + [0])
        case .int8(let v): w.uint32(UInt32(bitPattern: Int32(v)))
        case .int16(let v): w.uint32(UInt32(bitPattern: Int32(v)))
        case .int32(let v): w.uint32(UInt32(bitPattern: v))
        default: w.uint32(UInt32(truncatingIfNeeded: value.unsignedValue ?? 0))
        }
        return w.bytes
    }
}
