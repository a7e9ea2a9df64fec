/// A four-character code as used for ISO-BMFF box types, brands, handlers and codecs ("moov", "avc1", "qt  ").
public struct FourCC: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The four bytes, big-endian, as stored in the file.
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// A code from exactly four ASCII characters, or nil.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        rawValue = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    public init(stringLiteral text: String) {
        guard let code = FourCC(text) else { preconditionFailure("FourCC literal must be 4 ASCII characters: \(text)") }
        self = code
    }

    /// The four bytes in file order.
    public var bytes: [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: rawValue >> $0) }
    }

    /// True when every byte is printable ASCII, as in every real top-level box type.
    public var isPrintable: Bool {
        bytes.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// The code as text; bytes that are not printable ASCII appear as `\xNN`.
    public var description: String {
        bytes.map { (0x20...0x7E).contains($0) ? String(UnicodeScalar($0)) : "\\x" + hex($0) }.joined()
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
