/// A file's kind from its first bytes, for cameras that say nothing useful (format 0x3000, a wrong
/// format, a name without a known extension): the magic numbers of the kinds cameras write.
extension MediaKind {
    /// How many leading bytes `init(contentStart:)` looks at.
    public static let contentSniffLength = 16

    /// The kind the first bytes of a file show, nil when they match none of the known signatures.
    public init?(contentStart bytes: [UInt8]) {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<(offset + prefix.count)]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) {
            // Little- or big-endian TIFF: DNG, NEF, ARW, CR2, PEF and most raws are TIFF inside; CR2 says so.
            self = starts(Array("CR".utf8), at: 8) ? .raw : .tiff
        } else if starts([0x49, 0x49, 0x55, 0x00]) || starts([0x49, 0x49, 0x52, 0x4F]) || starts(Array("FUJIFILMCCD-RAW".utf8)) {
            // Panasonic RW2, Olympus ORF, Fujifilm RAF.
            self = .raw
        } else if starts(Array("ftyp".utf8), at: 4), bytes.count >= 12 {
            // A brand is four printable characters; anything else is not ISO-BMFF.
            guard bytes[8..<12].allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            switch brand {
            case "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif": self = .heic
            case "crx ": self = .raw
            case "qt  ": self = .mov
            default: self = .mp4
            }
        } else if starts(Array("moov".utf8), at: 4) || starts(Array("mdat".utf8), at: 4) || starts(Array("wide".utf8), at: 4) {
            self = .mov
        } else {
            return nil
        }
    }
}
