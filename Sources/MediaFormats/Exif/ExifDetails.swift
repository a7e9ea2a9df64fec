/// What a photo's EXIF says of where and how it was taken, from its tags: each field only when the file
/// says it (a tag absent, or a value no number, leaves it nil).
public struct ExifDetails: Sendable, Equatable {
    /// Where the sea-level altitude is measured from (GPSAltitudeRef).
    public enum AltitudeReference: Sendable, Equatable {
        case aboveSeaLevel
        case belowSeaLevel
        /// A value EXIF 2.32 does not define.
        case other(UInt32)
    }

    /// Degrees north (negative: south) and east (negative: west); the sign from GPSLatitudeRef and
    /// GPSLongitudeRef, positive when the file gives no reference.
    public var latitude: Double?
    public var longitude: Double?
    /// False when the file gives a latitude or longitude without its N/S or E/W reference.
    public var hemispheresGiven = true
    /// GPSAltitude in metres, as written (its reference says above or below).
    public var altitude: Double?
    public var altitudeReference: AltitudeReference?
    /// ExposureTime in seconds, as the fraction written.
    public var exposureTime: ExifRational?
    public var fNumber: Double?
    /// ISO (PhotographicSensitivity), else ISOSpeed.
    public var iso: UInt32?
    /// ExposureCompensation in EV.
    public var exposureBias: Double?
    public var lensMake: String?
    public var lensModel: String?
    /// FocalLength in millimetres.
    public var focalLength: Double?
    /// FocalLengthIn35mmFormat in millimetres.
    public var focalLength35: UInt32?
    public var make: String?
    public var model: String?
    /// The body's serial number (BodySerialNumber, exiftool's SerialNumber).
    public var serialNumber: String?

    public init(tags: [ExifTag]) {
        func tag(_ directory: ExifTag.Directory, _ id: UInt16) -> ExifValue? {
            tags.first { $0.directory == directory && $0.id == id }?.value
        }
        func text(_ directory: ExifTag.Directory, _ id: UInt16) -> String? {
            tag(directory, id)?.text.flatMap { $0.isEmpty ? nil : $0 }
        }
        func positive(_ value: Double?) -> Double? { value.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } }

        if let degrees = tag(.gps, 0x02).flatMap(Self.degrees), degrees <= 90, let east = tag(.gps, 0x04).flatMap(Self.degrees) {
            let north = text(.gps, 0x01)?.uppercased().first
            let eastRef = text(.gps, 0x03)?.uppercased().first
            latitude = north == "S" ? -degrees : degrees
            longitude = eastRef == "W" ? -east : east
            hemispheresGiven = north != nil && eastRef != nil
        }
        if let metres = tag(.gps, 0x06)?.number, metres.isFinite {
            altitude = metres
            if case .unsigned(let values)? = tag(.gps, 0x05), let reference = values.first {
                altitudeReference =
                    switch reference {
                    case 0: .aboveSeaLevel
                    case 1: .belowSeaLevel
                    default: .other(reference)
                    }
            }
        }
        if case .rational(let values)? = tag(.exif, 0x829A), let time = values.first, positive(time.value) != nil {
            exposureTime = time
        }
        fNumber = positive(tag(.exif, 0x829D)?.number)
        iso = [tag(.exif, 0x8827), tag(.exif, 0x8833)].lazy.compactMap { $0?.number }.first { $0 > 0 && $0 < 1e9 }
            .map { UInt32($0) }
        exposureBias = tag(.exif, 0x9204)?.number.flatMap { $0.isFinite ? $0 : nil }
        lensMake = text(.exif, 0xA433)
        lensModel = text(.exif, 0xA434)
        focalLength = positive(tag(.exif, 0x920A)?.number)
        focalLength35 = positive(tag(.exif, 0xA405)?.number).map { UInt32(min($0, 1e6)) }
        make = text(.ifd0, 0x010F)
        model = text(.ifd0, 0x0110)
        serialNumber = text(.exif, 0xA431)
    }

    /// True when the tags gave none of the fields.
    public var isEmpty: Bool { self == ExifDetails(tags: []) }

    /// Degrees from one to three rationals (degrees, minutes, seconds), as GPSLatitude and GPSLongitude
    /// write them, to a billionth; nil when a part is no number or the result is out of range.
    static func degrees(_ value: ExifValue) -> Double? {
        guard case .rational(let parts) = value, (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            guard let number = part.value, number.isFinite, number >= 0 else { return nil }
            total += number / [1.0, 60, 3600][index]
        }
        // To a billionth of a degree (0.1 mm): 6.632273, not the 6.6322730000000005 the sum leaves.
        return total <= 180 ? (total * 1e9).rounded() / 1e9 : nil
    }
}
