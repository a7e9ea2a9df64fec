/// Builds TIFF/EXIF blocks in either byte order, laid out as IFD0, Exif sub-IFD, IFD1, thumbnail.
struct TIFFBuilder {
    let bigEndian: Bool

    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        /// The value in the block's byte order; 4 bytes or fewer go inside the entry.
        var value: [UInt8]
    }

    func u16(_ value: UInt16) -> [UInt8] {
        let bytes = [UInt8(value >> 8), UInt8(value & 0xFF)]
        return bigEndian ? bytes : bytes.reversed()
    }

    func u32(_ value: UInt32) -> [UInt8] {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
        return bigEndian ? bytes : bytes.reversed()
    }

    func ascii(_ tag: UInt16, _ text: String) -> Entry {
        let bytes = Array(text.utf8) + [0]
        return Entry(tag: tag, type: 2, count: UInt32(bytes.count), value: bytes)
    }

    func short(_ tag: UInt16, _ value: UInt16) -> Entry {
        Entry(tag: tag, type: 3, count: 1, value: u16(value) + [0, 0])
    }

    func long(_ tag: UInt16, _ value: UInt32) -> Entry {
        Entry(tag: tag, type: 4, count: 1, value: u32(value))
    }

    private func blockSize(_ entries: [Entry]) -> Int {
        2 + 12 * entries.count + 4 + entries.filter { $0.value.count > 4 }.reduce(0) { $0 + $1.value.count }
    }

    /// One IFD at `offset`: entry table, next-IFD pointer, then the values that do not fit in entries.
    private func block(_ entries: [Entry], at offset: Int, next: UInt32) -> [UInt8] {
        var table = u16(UInt16(entries.count))
        var data: [UInt8] = []
        let dataStart = offset + 2 + 12 * entries.count + 4
        for entry in entries {
            table += u16(entry.tag) + u16(entry.type) + u32(entry.count)
            if entry.value.count > 4 {
                table += u32(UInt32(dataStart + data.count))
                data += entry.value
            } else {
                table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            }
        }
        return table + u32(next) + data
    }

    /// The whole TIFF block. The Exif pointer, IFD1 link and thumbnail tags are added here.
    func build(ifd0: [Entry], exif: [Entry]? = nil, ifd1: [Entry] = [], thumbnail: [UInt8]? = nil) -> [UInt8] {
        let placeholder = long(0, 0)
        let ifd0Entries = ifd0 + (exif == nil ? [] : [placeholder])
        let ifd1Entries = ifd1 + (thumbnail == nil ? [] : [placeholder, placeholder])
        let ifd0Offset = 8
        let exifOffset = ifd0Offset + blockSize(ifd0Entries)
        let ifd1Offset = exifOffset + (exif.map(blockSize) ?? 0)
        let hasIFD1 = !ifd1Entries.isEmpty
        let thumbnailOffset = ifd1Offset + (hasIFD1 ? blockSize(ifd1Entries) : 0)

        var bytes: [UInt8] = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(UInt32(ifd0Offset))
        let zeroth = ifd0 + (exif == nil ? [] : [long(0x8769, UInt32(exifOffset))])
        bytes += block(zeroth, at: ifd0Offset, next: hasIFD1 ? UInt32(ifd1Offset) : 0)
        if let exif { bytes += block(exif, at: exifOffset, next: 0) }
        if hasIFD1 {
            var first = ifd1
            if let thumbnail {
                first += [long(0x0201, UInt32(thumbnailOffset)), long(0x0202, UInt32(thumbnail.count))]
            }
            bytes += block(first, at: ifd1Offset, next: 0)
        }
        return bytes + (thumbnail ?? [])
    }
}

/// Builds a small JPEG's header: SOI, optional APP1 EXIF, SOF, SOS and a little fake scan data.
enum SyntheticJPEG {
    static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
        [0xFF, marker] + BoxBytes.u16(UInt16(body.count + 2)) + body
    }

    static func frameHeader(width: UInt16, height: UInt16, marker: UInt8 = 0xC0) -> [UInt8] {
        segment(marker, [8] + BoxBytes.u16(height) + BoxBytes.u16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
    }

    static func exifSegment(_ tiff: [UInt8]) -> [UInt8] {
        segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff)
    }

    static func file(exif tiff: [UInt8]? = nil, width: UInt16 = 64, height: UInt16 = 48, before: [UInt8] = []) -> [UInt8] {
        [0xFF, 0xD8] + segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]) + before
            + (tiff.map(exifSegment) ?? []) + frameHeader(width: width, height: height)
            + segment(0xDA, [1, 1, 0, 0, 0x3F, 0]) + [0x12, 0x34, 0x56] + [0xFF, 0xD9]
    }
}
