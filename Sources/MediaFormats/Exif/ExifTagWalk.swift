/// Every tag of a TIFF block's directories (IFD0, the Exif sub-IFD, GPS, interoperability, IFD1), decoded.
/// Forgiving where `ExifParser` is strict: a directory or value the block does not hold (a lying offset or
/// count, a file's first bytes that stop short) is left out and the rest is kept. Bounded: each directory
/// is read once, and at most `decodedBudget` bytes of values are decoded; beyond it, and for any value over
/// `largestValue` bytes, only the size is kept.
struct ExifTagWalk {
    let block: TIFFBlock
    var largestValue = 4096
    var decodedBudget = 256 << 10

    /// The pointers from one directory to another; not tags of their own in exiftool's listing.
    private static let pointers: [UInt16: ExifTag.Directory] = [0x8769: .exif, 0x8825: .gps, 0xA005: .interop]

    /// StripOffsets and ThumbnailOffset: offsets from the TIFF header, shown from the start of the file.
    private static let fileOffsets: Set<UInt16> = [0x0111, 0x0201]

    init(_ block: TIFFBlock) {
        self.block = block
    }

    func tags() -> [ExifTag] {
        var tags: [ExifTag] = []
        var visited: Set<UInt32> = []
        var budget = decodedBudget
        // Directories to read, in exiftool's order: IFD0's pointers are followed before IFD1.
        var pending: [(ExifTag.Directory, UInt32)] = [(.ifd0, block.ifd0Offset)]
        while !pending.isEmpty {
            let (directory, offset) = pending.removeFirst()
            guard visited.insert(offset).inserted,
                let (entries, next) = try? block.entries(at: offset, name: directory.rawValue)
            else { continue }
            var found: [(ExifTag.Directory, UInt32)] = []
            for entry in entries {
                if let target = Self.pointers[entry.tag], directory != .gps {
                    if let pointer = try? block.uint(entry) { found.append((target, pointer)) }
                    continue
                }
                guard var value = value(of: entry, budget: &budget) else { continue }
                // Offsets of image data, as exiftool gives them: from the start of the file.
                if Self.fileOffsets.contains(entry.tag), directory != .gps, case .unsigned(let offsets) = value {
                    value = .unsigned(offsets.map { UInt32(truncatingIfNeeded: UInt64($0) + block.fileOffset) })
                }
                tags.append(ExifTag(directory: directory, id: entry.tag, value: value))
            }
            if directory == .ifd0, next != 0 { found.append((.ifd1, next)) }
            pending.insert(contentsOf: found, at: 0)
        }
        return tags
    }

    /// The entry's value, or nil when its type is unknown or its bytes are not in the block.
    private func value(of entry: TIFFBlock.Entry, budget: inout Int) -> ExifValue? {
        guard let range = try? block.valueBytes(entry) else { return nil }
        if range.count > largestValue || range.count > budget { return .binary(byteCount: range.count) }
        budget -= range.count
        var cursor = ByteCursor(block.bytes, range: range, what: "a tag's value")
        let big = block.bigEndian
        let count = Int(entry.count)
        do {
            switch entry.type {
            case 2:
                return .text(TIFFBlock.text(block.bytes[range]) ?? "")
            case 1:
                return .unsigned(block.bytes[range].map { UInt32($0) })
            case 6:
                return .signed(block.bytes[range].map { Int32(Int8(bitPattern: $0)) })
            case 7:
                return Self.undefined(Array(block.bytes[range]), tag: entry.tag)
            case 3:
                return .unsigned(try (0..<count).map { _ in UInt32(try cursor.readUInt16(bigEndian: big)) })
            case 8:
                return .signed(try (0..<count).map { _ in Int32(Int16(bitPattern: try cursor.readUInt16(bigEndian: big))) })
            case 4, 13:
                return .unsigned(try (0..<count).map { _ in try cursor.readUInt32(bigEndian: big) })
            case 9:
                return .signed(try (0..<count).map { _ in Int32(bitPattern: try cursor.readUInt32(bigEndian: big)) })
            case 5:
                return .rational(
                    try (0..<count).map { _ in
                        ExifRational(Int64(try cursor.readUInt32(bigEndian: big)), Int64(try cursor.readUInt32(bigEndian: big)))
                    })
            case 10:
                return .rational(
                    try (0..<count).map { _ in
                        let numerator = Int32(bitPattern: try cursor.readUInt32(bigEndian: big))
                        return ExifRational(Int64(numerator), Int64(Int32(bitPattern: try cursor.readUInt32(bigEndian: big))))
                    })
            case 11:
                return .real(try (0..<count).map { _ in Double(Float(bitPattern: try cursor.readUInt32(bigEndian: big))) })
            case 12:
                return .real(
                    try (0..<count).map { _ in
                        let high = UInt64(try cursor.readUInt32(bigEndian: big))
                        let low = UInt64(try cursor.readUInt32(bigEndian: big))
                        return Double(bitPattern: big ? high << 32 | low : low << 32 | high)
                    })
            default:
                return nil
            }
        } catch {
            return nil
        }
    }

    /// Tags whose UNDEFINED bytes start with an 8-byte character code (EXIF's user comment and GPS texts).
    private static let codedText: Set<UInt16> = [0x9286, 0x001B, 0x001C]

    /// UNDEFINED bytes: text when they are (`0232`; a user comment in ASCII after its character code), the
    /// bytes when few, else only their size.
    static func undefined(_ bytes: [UInt8], tag: UInt16) -> ExifValue {
        var body = bytes[...]
        if codedText.contains(tag), bytes.count >= 8 {
            let code = bytes.prefix(8)
            guard code.elementsEqual(Array("ASCII".utf8) + [0, 0, 0]) || code.allSatisfy({ $0 == 0 }) else {
                return bytes.count <= 64 ? .bytes(bytes) : .binary(byteCount: bytes.count)
            }
            body = bytes.dropFirst(8)
            if body.allSatisfy({ $0 == 0 || $0 == 0x20 }) { return .text("") }
        }
        let text = body.prefix { $0 != 0 }
        if !text.isEmpty, text.allSatisfy({ (0x20...0x7E).contains($0) }), body.dropFirst(text.count).allSatisfy({ $0 == 0 }) {
            return .text(TIFFBlock.text(text) ?? "")
        }
        return bytes.count <= 64 ? .bytes(bytes) : .binary(byteCount: bytes.count)
    }
}
