/// Builds PTP's little-endian encoding.
public struct PTPWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    public mutating func uint8(_ value: UInt8) { bytes.append(value) }

    public mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    public mutating func uint32(_ value: UInt32) {
        for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(i)))) }
    }

    public mutating func uint64(_ value: UInt64) {
        for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }

    public mutating func raw<C: Collection>(_ data: C) where C.Element == UInt8 { bytes.append(contentsOf: data) }

    /// A PTP string; at most 254 UTF-16 units are kept (the count byte includes the NUL).
    public mutating func string(_ value: String) {
        if value.isEmpty { uint8(0); return }
        // ASCII (most names, every date): each byte is a code unit, with no array of them in between.
        let utf8 = value.utf8
        if utf8.count <= 254, utf8.allSatisfy({ $0 < 0x80 }) {
            uint8(UInt8(utf8.count + 1))
            for byte in utf8 {
                bytes.append(byte)
                bytes.append(0)
            }
            uint16(0)
            return
        }
        var units = Array(value.utf16.prefix(254))
        // Do not cut a surrogate pair in half.
        if let last = units.last, UTF16.isLeadSurrogate(last) { units.removeLast() }
        uint8(UInt8(units.count + 1))
        for unit in units { uint16(unit) }
        uint16(0)
    }

    public mutating func uint16Array(_ values: [UInt16]) {
        uint32(UInt32(values.count))
        for v in values { uint16(v) }
    }

    public mutating func uint32Array(_ values: [UInt32]) {
        uint32(UInt32(values.count))
        for v in values { uint32(v) }
    }

    /// Overwrites a u32 already written at `offset` (for lengths known only at the end).
    public mutating func patchUInt32(_ value: UInt32, at offset: Int) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
    }
}
