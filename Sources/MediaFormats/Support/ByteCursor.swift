/// A bounded reading position inside bytes already fetched. Every read checks the bound and throws
/// `.truncated` instead of trapping, so parsers can take fields in order without their own range checks.
struct ByteCursor {
    /// The bytes being read; the cursor only ever looks at `bytes[position..<end]`.
    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int
    /// Where `bytes[0]` sits in the file, so errors can name a file offset.
    let fileOffset: UInt64
    /// What is being read, for error messages ("the stts box").
    let what: String

    init(_ bytes: [UInt8], range: Range<Int>? = nil, fileOffset: UInt64 = 0, what: String) {
        self.bytes = bytes
        let range = range ?? 0..<bytes.count
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count)
        self.position = range.lowerBound
        self.end = range.upperBound
        self.fileOffset = fileOffset
        self.what = what
    }

    var remaining: Int { end - position }
    var isAtEnd: Bool { position >= end }
    /// The file offset of the next byte to read.
    var currentFileOffset: UInt64 { fileOffset + UInt64(position) }

    private mutating func take(_ count: Int) throws -> Int {
        guard count >= 0, count <= remaining else {
            throw MediaFormatError.truncated(what, offset: currentFileOffset)
        }
        let start = position
        position += count
        return start
    }

    mutating func skip(_ count: Int) throws {
        _ = try take(count)
    }

    /// Moves to `offset` (an index into `bytes`) within this cursor's range.
    mutating func seek(to offset: Int) throws {
        guard offset >= 0, offset <= end else {
            throw MediaFormatError.truncated(what, offset: currentFileOffset)
        }
        position = offset
    }

    mutating func readUInt8() throws -> UInt8 {
        bytes[try take(1)]
    }

    mutating func readUInt16(bigEndian: Bool = true) throws -> UInt16 {
        let i = try take(2)
        let (a, b) = (UInt16(bytes[i]), UInt16(bytes[i + 1]))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    mutating func readUInt24() throws -> UInt32 {
        let i = try take(3)
        return UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
    }

    mutating func readUInt32(bigEndian: Bool = true) throws -> UInt32 {
        let i = try take(4)
        var value: UInt32 = 0
        for k in 0..<4 {
            let byte = UInt32(bytes[i + (bigEndian ? k : 3 - k)])
            value = value << 8 | byte
        }
        return value
    }

    mutating func readUInt64() throws -> UInt64 {
        let high = UInt64(try readUInt32())
        let low = UInt64(try readUInt32())
        return high << 32 | low
    }

    mutating func readInt32() throws -> Int32 {
        Int32(bitPattern: try readUInt32())
    }

    mutating func readInt64() throws -> Int64 {
        Int64(bitPattern: try readUInt64())
    }

    /// Reads `count` bytes as an array; the count is checked against the bytes left before anything is allocated.
    mutating func readBytes(_ count: Int) throws -> [UInt8] {
        let i = try take(count)
        return Array(bytes[i..<i + count])
    }

    /// A cursor over the next `count` bytes, which this cursor then skips.
    mutating func subCursor(_ count: Int, what: String? = nil) throws -> ByteCursor {
        let i = try take(count)
        return ByteCursor(bytes, range: i..<i + count, fileOffset: fileOffset, what: what ?? self.what)
    }

    /// Throws unless `count` entries of `size` bytes each fit in what is left: the guard that keeps an
    /// untrusted count from sizing an allocation or a loop.
    func requireEntries(_ count: UInt64, of size: Int, _ name: String) throws {
        let (total, overflow) = count.multipliedReportingOverflow(by: UInt64(size))
        guard !overflow, total <= UInt64(remaining) else {
            throw MediaFormatError(
                .countExceedsRoom(structure: what, count: count, unit: name, room: remaining / max(size, 1)),
                offset: currentFileOffset)
        }
    }
}
