/// Reads PTP's little-endian encoding from a byte buffer. Every read is bounds-checked and throws
/// `PTPError.malformed` (where, what) instead of trapping; nothing is allocated from a count the buffer cannot hold.
public struct PTPReader: Sendable {
    public let bytes: [UInt8]
    public private(set) var offset: Int
    /// What is being decoded, for error messages ("ObjectInfo").
    public var context: String

    public init(_ bytes: [UInt8], context: String = "dataset") {
        self.bytes = bytes
        self.offset = 0
        self.context = context
    }

    public var remaining: Int { bytes.count - offset }
    public var isAtEnd: Bool { offset >= bytes.count }

    /// `defect` in the structure being read (`context`).
    public func fail(_ defect: Malformation.Defect) -> PTPError {
        .malformed(Malformation(context, defect))
    }

    /// `what` is built only on failure: a listing of 100,000 objects reads some 300,000 strings, and an
    /// eager "string of 16 characters" was an allocation each.
    mutating func need(_ count: Int, _ what: @autoclosure () -> String) throws {
        if count < 0 || count > remaining { throw fail(.truncated(field: what(), offset: offset, total: bytes.count)) }
    }

    public mutating func skip(_ count: Int) throws {
        try need(count, "field")
        offset += count
    }

    public mutating func uint8() throws -> UInt8 {
        try need(1, "u8")
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func uint16() throws -> UInt16 {
        try need(2, "u16")
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    public mutating func uint32() throws -> UInt32 {
        try need(4, "u32")
        defer { offset += 4 }
        var value: UInt32 = 0
        for i in 0..<4 { value |= UInt32(bytes[offset + i]) << (8 * UInt32(i)) }
        return value
    }

    public mutating func uint64() throws -> UInt64 {
        try need(8, "u64")
        defer { offset += 8 }
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        return value
    }

    public mutating func raw(_ count: Int) throws -> [UInt8] {
        try need(count, "\(count) bytes")
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    public mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    /// A PTP string: u8 count of UTF-16 code units including the terminating NUL (0 for empty),
    /// then the code units. A missing terminator is an error; invalid UTF-16 (an unpaired surrogate)
    /// becomes U+FFFD, so that one odd name costs nothing but its spelling.
    public mutating func string() throws -> String {
        let count = Int(try uint8())
        if count == 0 { return "" }
        try need(count * 2, "string of \(count) characters")
        let start = offset
        offset += count * 2
        return try bytes.withUnsafeBufferPointer { all -> String in
            let units = UnsafeBufferPointer(rebasing: all[start..<start + count * 2])
            func unit(_ i: Int) -> UInt16 { UInt16(units[2 * i]) | UInt16(units[2 * i + 1]) << 8 }
            guard unit(count - 1) == 0 else { throw fail(.unterminatedText(field: "string")) }
            // Tolerate extra NULs before the terminator (some devices pad); cut at the first.
            var length = 0
            var ascii = true
            while length < count - 1 {
                let u = unit(length)
                if u == 0 { break }
                if u >= 0x80 { ascii = false }
                length += 1
            }
            // Most names are ASCII (DCIM rules): those are copied straight into UTF-8, without transcoding
            // or an array of code units, which matters on a card of 100,000 names.
            if ascii {
                return String(unsafeUninitializedCapacity: length) { utf8 in
                    for i in 0..<length { utf8[i] = units[2 * i] }
                    return length
                }
            }
            // Ill-formed UTF-16 (a lone surrogate) becomes U+FFFD, as the listing promises: one bad name
            // costs that name's characters, not the object.
            return String(decoding: (0..<length).map(unit), as: UTF16.self)
        }
    }

    /// Steps over a PTP string with the checks `string()` makes, without building it.
    public mutating func skipString() throws {
        let count = Int(try uint8())
        if count == 0 { return }
        try need(count * 2, "string of \(count) characters")
        let last = offset + 2 * (count - 1)
        guard bytes[last] == 0 && bytes[last + 1] == 0 else {
            offset += count * 2
            throw fail(.unterminatedText(field: "string"))
        }
        offset += count * 2
    }

    /// A PTP array: u32 element count, then the elements. The count is checked against the bytes left
    /// before anything is allocated.
    public mutating func array<T>(elementSize: Int, _ element: (inout PTPReader) throws -> T) throws -> [T] {
        let count = Int(try uint32())
        guard elementSize > 0, count <= remaining / elementSize else {
            throw fail(.countExceedsRoom(count: count, room: remaining))
        }
        var result = [T]()
        result.reserveCapacity(count)
        for _ in 0..<count { result.append(try element(&self)) }
        return result
    }

    public mutating func uint16Array() throws -> [UInt16] { try array(elementSize: 2) { try $0.uint16() } }
    public mutating func uint32Array() throws -> [UInt32] { try array(elementSize: 4) { try $0.uint32() } }
}
