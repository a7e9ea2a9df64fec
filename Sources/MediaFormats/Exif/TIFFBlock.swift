import Foundation

/// A TIFF structure in memory (an EXIF APP1 block, or the first bytes of a TIFF-based raw file): its byte
/// order, its IFDs and their values. Offsets inside it are relative to its "II"/"MM" header, and every one
/// is checked against the bytes in hand.
struct TIFFBlock {
    /// The bytes from the "II"/"MM" header on.
    let bytes: [UInt8]
    /// Where `bytes[0]` sits in the file.
    let fileOffset: UInt64
    let bigEndian: Bool
    /// Where IFD0 starts.
    let ifd0Offset: UInt32

    /// One 12-byte IFD entry; the value (or its offset) is the 4 bytes at `valueFieldIndex`, in block order.
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var valueFieldIndex: Int
    }

    /// Reads the header. `rawMagic` also takes the numbers some raw formats put where TIFF has 42
    /// (Olympus ORF "RO" and "SR", Panasonic RW2 0x55).
    init(_ bytes: [UInt8], fileOffset: UInt64, rawMagic: Bool = false) throws {
        self.bytes = bytes
        self.fileOffset = fileOffset
        var header = ByteCursor(bytes, fileOffset: fileOffset, what: "the EXIF block")
        switch try header.readUInt16() {
        case 0x4949: bigEndian = false
        case 0x4D4D: bigEndian = true
        default: throw MediaFormatError(.exif(.noByteOrderMark), offset: fileOffset)
        }
        let magic = try header.readUInt16(bigEndian: bigEndian)
        guard magic == 42 || rawMagic && [0x4F52, 0x5352, 0x0055].contains(magic) else {
            throw MediaFormatError(.exif(.noMagicNumber), offset: fileOffset)
        }
        ifd0Offset = try header.readUInt32(bigEndian: bigEndian)
    }

    /// The entries of the IFD at `offset` in order, and the offset of the next IFD (0 for none).
    func entries(at offset: UInt32, name: String) throws -> ([Entry], UInt32) {
        guard offset >= 8, UInt64(offset) + 2 <= UInt64(bytes.count) else {
            throw malformed(.ifdOutside(ifd: name, at: offset))
        }
        var reader = cursor(at: Int(offset))
        let count = try reader.readUInt16(bigEndian: bigEndian)
        try reader.requireEntries(UInt64(count), of: 12, "entries in \(name)")
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let tag = try reader.readUInt16(bigEndian: bigEndian)
            let type = try reader.readUInt16(bigEndian: bigEndian)
            let valueCount = try reader.readUInt32(bigEndian: bigEndian)
            entries.append(Entry(tag: tag, type: type, count: valueCount, valueFieldIndex: reader.position))
            try reader.skip(4)
        }
        // Some writers leave out the next-IFD pointer of the last IFD.
        let next = reader.remaining >= 4 ? try reader.readUInt32(bigEndian: bigEndian) : 0
        return (entries, next)
    }

    /// The entries of the IFD at `offset` by tag (the first of a repeated tag), and the next IFD's offset.
    func readIFD(at offset: UInt32, name: String) throws -> ([UInt16: Entry], UInt32) {
        let (list, next) = try entries(at: offset, name: name)
        var byTag: [UInt16: Entry] = [:]
        for entry in list where byTag[entry.tag] == nil { byTag[entry.tag] = entry }
        return (byTag, next)
    }

    /// The size of one value of a TIFF type, or nil for a type TIFF does not define.
    static func unitSize(ofType type: UInt16) -> UInt64? {
        switch type {
        case 1, 2, 6, 7: 1  // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: 2  // SHORT, SSHORT
        case 4, 9, 11, 13: 4  // LONG, SLONG, FLOAT, IFD
        case 5, 10, 12: 8  // RATIONAL, SRATIONAL, DOUBLE
        default: nil
        }
    }

    /// The bytes of an entry's value: inside the entry when 4 bytes or fewer, else at the offset it names.
    func valueBytes(_ entry: Entry) throws -> Range<Int> {
        guard let unit = Self.unitSize(ofType: entry.type) else {
            throw malformed(.unknownTagType(tag: entry.tag, type: entry.type))
        }
        let size = unit * UInt64(entry.count)
        if size <= 4 { return entry.valueFieldIndex..<entry.valueFieldIndex + Int(size) }
        var field = cursor(at: entry.valueFieldIndex)
        let offset = UInt64(try field.readUInt32(bigEndian: bigEndian))
        guard offset + size <= UInt64(bytes.count) else {
            throw malformed(.tagOutside(tag: entry.tag, size: size))
        }
        return Int(offset)..<Int(offset + size)
    }

    /// A SHORT or LONG value (the first of several).
    func uint(_ entry: Entry) throws -> UInt32 {
        guard entry.count >= 1 else { throw malformed(.tagWithoutValue(tag: entry.tag)) }
        var field = cursor(at: entry.valueFieldIndex)
        switch entry.type {
        case 3: return UInt32(try field.readUInt16(bigEndian: bigEndian))
        case 4, 13: return try field.readUInt32(bigEndian: bigEndian)
        default: throw malformed(.tagNotANumber(tag: entry.tag, type: entry.type))
        }
    }

    /// An ASCII value without its terminating NUL and padding; nil for another type or an empty text.
    func string(_ entry: Entry) throws -> String? {
        guard entry.type == 2 else { return nil }
        return Self.text(bytes[try valueBytes(entry)])
    }

    /// Text up to its first NUL, trimmed; nil when nothing is left.
    static func text(_ bytes: some Collection<UInt8>) -> String? {
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }

    func cursor(at index: Int) -> ByteCursor {
        ByteCursor(bytes, range: min(index, bytes.count)..<bytes.count, fileOffset: fileOffset, what: "the EXIF block")
    }

    func malformed(_ defect: MediaFormatError.ExifDefect) -> MediaFormatError {
        MediaFormatError(.exif(defect), offset: fileOffset)
    }
}
