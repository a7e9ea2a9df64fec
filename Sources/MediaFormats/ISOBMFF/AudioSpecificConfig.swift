/// The channel count an MPEG-4 audio track really has. MP4 files store a placeholder (2) in the sound
/// sample entry; the truth is in the `esds` box: ES descriptor > decoder config > AudioSpecificConfig.
enum AudioSpecificConfig {
    /// The channels from an `esds` box's payload (after version and flags), or nil when it does not say.
    static func channelCount(esds: ByteCursor) throws -> Int? {
        var cursor = esds
        guard let esDescriptor = try descriptor(tag: 0x03, in: &cursor) else { return nil }
        var es = esDescriptor
        _ = try es.readUInt16()  // ES_ID
        let flags = try es.readUInt8()
        if flags & 0x80 != 0 { try es.skip(2) }  // depends on ES_ID
        if flags & 0x40 != 0 { try es.skip(Int(try es.readUInt8())) }  // URL
        if flags & 0x20 != 0 { try es.skip(2) }  // OCR ES_ID
        guard var config = try descriptor(tag: 0x04, in: &es) else { return nil }
        try config.skip(1 + 1 + 3 + 4 + 4)  // object type, stream type, buffer size, max and average bitrate
        guard var specific = try descriptor(tag: 0x05, in: &config), specific.remaining >= 2 else { return nil }

        var bits = BitReader(try specific.readBytes(min(specific.remaining, 8)))
        var objectType = try bits.read(5)
        if objectType == 31 { objectType = 32 + (try bits.read(6)) }
        if try bits.read(4) == 15 { _ = try bits.read(24) }  // explicit sampling frequency
        let configuration = try bits.read(4)
        switch configuration {
        case 1...6: return Int(configuration)
        case 7: return 8
        default: return nil  // 0: given by a program config element; others reserved
        }
    }

    /// The next descriptor if it has `tag`, as a cursor over its body; its size uses 1 to 4 bytes of 7 bits.
    private static func descriptor(tag: UInt8, in cursor: inout ByteCursor) throws -> ByteCursor? {
        guard !cursor.isAtEnd, try cursor.readUInt8() == tag else { return nil }
        var size = 0
        for _ in 0..<4 {
            let byte = try cursor.readUInt8()
            size = size << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { break }
        }
        guard size <= cursor.remaining else {
            throw MediaFormatError(.invalidField(box: "esds", field: "descriptor size", value: Int64(size)), offset: cursor.currentFileOffset)
        }
        return try cursor.subCursor(size)
    }

    /// Reads big-endian bit fields from a few bytes.
    private struct BitReader {
        let bytes: [UInt8]
        var bitPosition = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func read(_ count: Int) throws -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<count {
                guard bitPosition / 8 < bytes.count else {
                    throw MediaFormatError.truncated("an AudioSpecificConfig")
                }
                let bit = bytes[bitPosition / 8] >> (7 - UInt8(bitPosition % 8)) & 1
                value = value << 1 | UInt32(bit)
                bitPosition += 1
            }
            return value
        }
    }
}
