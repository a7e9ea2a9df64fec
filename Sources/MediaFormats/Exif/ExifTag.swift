import Foundation

/// One fraction as EXIF writes it (RATIONAL or SRATIONAL): `1/250` for a shutter time, `28/10` for f/2.8.
public struct ExifRational: Sendable, Equatable {
    public let numerator: Int64
    public let denominator: Int64

    public init(_ numerator: Int64, _ denominator: Int64) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The number, or nil for a zero denominator (a value the writer did not know: `0/0`).
    public var value: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }
}

/// A tag's value, decoded by its TIFF type.
public enum ExifValue: Sendable, Equatable {
    /// ASCII, without its NUL.
    case text(String)
    /// BYTE, SHORT, LONG (and IFD offsets).
    case unsigned([UInt32])
    /// SBYTE, SSHORT, SLONG.
    case signed([Int32])
    /// RATIONAL and SRATIONAL.
    case rational([ExifRational])
    /// FLOAT and DOUBLE.
    case real([Double])
    /// UNDEFINED bytes, when few.
    case bytes([UInt8])
    /// A value too large to keep (a maker note, a long table): only its size in bytes.
    case binary(byteCount: Int)

    /// The values as numbers (rationals divided, a 0 denominator nil); empty for text and bytes.
    public var numbers: [Double?] {
        switch self {
        case .unsigned(let values): values.map { Double($0) }
        case .signed(let values): values.map { Double($0) }
        case .rational(let values): values.map(\.value)
        case .real(let values): values.map { $0 }
        case .text, .bytes, .binary: []
        }
    }

    /// The first value as a number.
    public var number: Double? { numbers.first ?? nil }

    /// The text, for an ASCII value.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}

/// One EXIF tag as found in the file: the directory it was in, its number and its value.
public struct ExifTag: Sendable, Equatable {
    /// The IFD a tag sits in, as exiftool groups them (`-G1`).
    public enum Directory: String, Sendable, CaseIterable {
        case ifd0 = "IFD0"
        case exif = "ExifIFD"
        case gps = "GPS"
        case interop = "InteropIFD"
        case ifd1 = "IFD1"
    }

    public let directory: Directory
    public let id: UInt16
    public let value: ExifValue

    public init(directory: Directory, id: UInt16, value: ExifValue) {
        self.directory = directory
        self.id = id
        self.value = value
    }

    /// exiftool's name for the tag (`ExposureTime`), nil for one this table does not know.
    public var name: String? { ExifTagNames.name(of: self)?.name }

    /// exiftool's description (`Exposure Time`, `Camera Model Name`); a tag this table does not know by
    /// the table and its number, as `exiftool -u` shows it (`Exif 0xc4a5`, `GPS 0x0020`).
    public var description: String {
        if let known = ExifTagNames.name(of: self) { return known.description }
        return (directory == .gps ? "GPS" : "Exif") + " 0x" + Self.hex4(id)
    }

    /// The number a tag means where it is not the number stored, as exiftool's `-n` gives it: a GPS
    /// latitude or longitude (of the place or the destination) in decimal degrees, without the sign its
    /// reference tag gives; the APEX values ShutterSpeedValue in seconds, ApertureValue and
    /// MaxApertureValue as f-numbers. Nil for any other tag.
    public var converted: Double? {
        switch (directory, id) {
        case (.gps, 0x02), (.gps, 0x04), (.gps, 0x14), (.gps, 0x16): ExifDetails.degrees(value)
        case (.exif, 0x9201): value.number.map { pow(2, -$0) }
        case (.exif, 0x9202), (.exif, 0x9205): value.number.map { pow(2, $0 / 2) }
        default: nil
        }
    }

    static func hex4(_ id: UInt16) -> String {
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
