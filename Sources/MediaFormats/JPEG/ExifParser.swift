import Foundation

/// Parses the TIFF structure inside an EXIF APP1 segment: IFD0 (make, model, orientation, date), the Exif
/// sub-IFD (date taken) and IFD1 (the thumbnail). Offsets inside it are relative to the TIFF header, and
/// every one is checked against the block's bytes.
struct ExifParser {
    /// The TIFF block, from its "II"/"MM" header to the end of the APP1 segment.
    let tiff: [UInt8]
    /// Where `tiff[0]` sits in the file.
    let fileOffset: UInt64
    private var bigEndian = false
    /// Only the dates: IFD1 (the thumbnail) and the camera's make and model are left out, so that a block
    /// cut short after its first IFDs (the start of a file read for its date) still parses.
    var datesOnly = false

    private enum Tag {
        static let make: UInt16 = 0x010F
        static let model: UInt16 = 0x0110
        static let orientation: UInt16 = 0x0112
        static let dateTime: UInt16 = 0x0132
        static let exifIFD: UInt16 = 0x8769
        static let dateTimeOriginal: UInt16 = 0x9003
        static let offsetTimeOriginal: UInt16 = 0x9011
        static let subSecTimeOriginal: UInt16 = 0x9291
        static let thumbnailOffset: UInt16 = 0x0201
        static let thumbnailLength: UInt16 = 0x0202
    }

    /// One 12-byte IFD entry; `valueField` is the 4-byte value or offset field, still in file byte order.
    private struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var valueFieldIndex: Int
    }

    init(tiff: [UInt8], fileOffset: UInt64) {
        self.tiff = tiff
        self.fileOffset = fileOffset
    }

    mutating func parse() throws -> ExifInfo {
        var header = cursor(at: 0)
        let order = try header.readUInt16()
        switch order {
        case 0x4949: bigEndian = false
        case 0x4D4D: bigEndian = true
        default: throw malformed(.noByteOrderMark)
        }
        guard try header.readUInt16(bigEndian: bigEndian) == 42 else {
            throw malformed(.noMagicNumber)
        }
        let ifd0Offset = try header.readUInt32(bigEndian: bigEndian)
        let (ifd0, ifd1Offset) = try readIFD(at: ifd0Offset, name: "IFD0")

        var dateTimeOriginal: String?
        var subSecTimeOriginal: String?
        var offsetTimeOriginal: String?
        if let pointer = ifd0[Tag.exifIFD] {
            let exifOffset = try uint(pointer)
            guard exifOffset != ifd0Offset else { throw malformed(.pointsBackAtIFD0(ifd: "Exif sub-IFD")) }
            let (exif, _) = try readIFD(at: exifOffset, name: "the Exif sub-IFD")
            dateTimeOriginal = try exif[Tag.dateTimeOriginal].flatMap(string)
            // Beside the date, and never a reason to lose it: a malformed one is left out.
            // (In a block cut short, one beyond it is an error: the caller reads the whole block then.)
            if datesOnly {
                subSecTimeOriginal = try exif[Tag.subSecTimeOriginal].flatMap(string)
                offsetTimeOriginal = try exif[Tag.offsetTimeOriginal].flatMap(string)
            } else {
                subSecTimeOriginal = (try? exif[Tag.subSecTimeOriginal].flatMap(string)) ?? nil
                offsetTimeOriginal = (try? exif[Tag.offsetTimeOriginal].flatMap(string)) ?? nil
            }
        }

        var thumbnail: [UInt8]?
        var thumbnailRange: Range<UInt64>?
        if ifd1Offset != 0, !datesOnly {
            guard ifd1Offset != ifd0Offset else { throw malformed(.pointsBackAtIFD0(ifd: "IFD1")) }
            let (ifd1, _) = try readIFD(at: ifd1Offset, name: "IFD1")
            if let start = ifd1[Tag.thumbnailOffset], let length = ifd1[Tag.thumbnailLength] {
                let (offset, count) = (UInt64(try uint(start)), UInt64(try uint(length)))
                guard count > 0, offset + count <= UInt64(tiff.count) else {
                    throw malformed(.thumbnailOutside(count: count, at: offset))
                }
                thumbnail = Array(tiff[Int(offset)..<Int(offset + count)])
                thumbnailRange = (fileOffset + offset)..<(fileOffset + offset + count)
            }
        }

        var orientation: Int?
        if let entry = ifd0[Tag.orientation], let value = try? uint(entry), (1...8).contains(value) {
            orientation = Int(value)
        }
        return ExifInfo(
            byteOrder: bigEndian ? .bigEndian : .littleEndian,
            make: datesOnly ? nil : try ifd0[Tag.make].flatMap(string),
            model: datesOnly ? nil : try ifd0[Tag.model].flatMap(string),
            orientation: orientation,
            dateTime: try ifd0[Tag.dateTime].flatMap(string),
            dateTimeOriginal: dateTimeOriginal,
            subSecTimeOriginal: subSecTimeOriginal,
            offsetTimeOriginal: offsetTimeOriginal,
            thumbnail: thumbnail,
            thumbnailRange: thumbnailRange)
    }

    /// The entries of the IFD at `offset`, by tag, and the offset of the next IFD (0 for none).
    private func readIFD(at offset: UInt32, name: String) throws -> ([UInt16: Entry], UInt32) {
        guard offset >= 8, UInt64(offset) + 2 <= UInt64(tiff.count) else {
            throw malformed(.ifdOutside(ifd: name, at: offset))
        }
        var reader = cursor(at: Int(offset))
        let count = try reader.readUInt16(bigEndian: bigEndian)
        try reader.requireEntries(UInt64(count), of: 12, "entries in \(name)")
        var entries: [UInt16: Entry] = [:]
        for _ in 0..<count {
            let tag = try reader.readUInt16(bigEndian: bigEndian)
            let type = try reader.readUInt16(bigEndian: bigEndian)
            let valueCount = try reader.readUInt32(bigEndian: bigEndian)
            let fieldIndex = reader.position
            try reader.skip(4)
            if entries[tag] == nil {
                entries[tag] = Entry(tag: tag, type: type, count: valueCount, valueFieldIndex: fieldIndex)
            }
        }
        // Some writers leave out the next-IFD pointer of the last IFD.
        let next = reader.remaining >= 4 ? try reader.readUInt32(bigEndian: bigEndian) : 0
        return (entries, next)
    }

    /// The bytes of an entry's value: inside the entry when 4 bytes or fewer, else at the offset it names.
    private func valueBytes(_ entry: Entry) throws -> Range<Int> {
        let unit: UInt64 =
            switch entry.type {
            case 1, 2, 6, 7: 1  // BYTE, ASCII, SBYTE, UNDEFINED
            case 3, 8: 2  // SHORT, SSHORT
            case 4, 9, 11: 4  // LONG, SLONG, FLOAT
            case 5, 10, 12: 8  // RATIONAL, SRATIONAL, DOUBLE
            default: throw malformed(.unknownTagType(tag: entry.tag, type: entry.type))
            }
        let size = unit * UInt64(entry.count)
        if size <= 4 { return entry.valueFieldIndex..<entry.valueFieldIndex + Int(size) }
        var field = cursor(at: entry.valueFieldIndex)
        let offset = UInt64(try field.readUInt32(bigEndian: bigEndian))
        guard offset + size <= UInt64(tiff.count) else {
            throw malformed(.tagOutside(tag: entry.tag, size: UInt64(size)))
        }
        return Int(offset)..<Int(offset + size)
    }

    /// A SHORT or LONG value.
    private func uint(_ entry: Entry) throws -> UInt32 {
        guard entry.count >= 1 else { throw malformed(.tagWithoutValue(tag: entry.tag)) }
        var field = cursor(at: entry.valueFieldIndex)
        switch entry.type {
        case 3: return UInt32(try field.readUInt16(bigEndian: bigEndian))
        case 4: return try field.readUInt32(bigEndian: bigEndian)
        default: throw malformed(.tagNotANumber(tag: entry.tag, type: entry.type))
        }
    }

    /// An ASCII value without its terminating NUL and padding.
    private func string(_ entry: Entry) throws -> String? {
        guard entry.type == 2 else { return nil }
        let range = try valueBytes(entry)
        let bytes = tiff[range].prefix { $0 != 0 }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }

    private func cursor(at index: Int) -> ByteCursor {
        ByteCursor(tiff, range: min(index, tiff.count)..<tiff.count, fileOffset: fileOffset, what: "the EXIF block")
    }

    private func malformed(_ defect: MediaFormatError.ExifDefect) -> MediaFormatError {
        MediaFormatError(.exif(defect), offset: fileOffset)
    }
}
