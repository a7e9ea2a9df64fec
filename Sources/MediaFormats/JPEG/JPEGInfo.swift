/// What the header of a JPEG file says: picture size from the frame header and, when present, its EXIF.
public struct JPEGInfo: Sendable {
    /// The stored picture width from the frame (SOF) header, before EXIF orientation.
    public let width: Int
    /// The stored picture height from the frame (SOF) header, before EXIF orientation.
    public let height: Int
    /// Colour components (1 grey, 3 YCbCr).
    public let componentCount: Int
    /// True for a progressive JPEG (SOF2).
    public let isProgressive: Bool
    /// The EXIF block from APP1, if the file has one.
    public let exif: ExifInfo?

    /// The width as displayed, after the EXIF orientation.
    public var displayWidth: Int { exif?.swapsDimensions == true ? height : width }

    /// The height as displayed, after the EXIF orientation.
    public var displayHeight: Int { exif?.swapsDimensions == true ? width : height }

    /// Landscape or portrait as displayed.
    public var orientation: DisplayOrientation {
        DisplayOrientation(width: displayWidth, height: displayHeight)
    }
}

/// The EXIF fields a media manager shows, and the embedded thumbnail.
public struct ExifInfo: Sendable {
    /// The byte order of the TIFF structure: little-endian ("II", Intel) or big-endian ("MM", Motorola).
    public enum ByteOrder: String, Sendable {
        case littleEndian = "II"
        case bigEndian = "MM"
    }

    /// The TIFF byte order the block was written in.
    public let byteOrder: ByteOrder
    /// The camera maker from IFD0 ("DJI").
    public let make: String?
    /// The camera model from IFD0 ("FC3582").
    public let model: String?
    /// The EXIF orientation, 1 (upright) to 8; 5 to 8 turn the picture a quarter.
    public let orientation: Int?
    /// The file's modification date from IFD0, as written ("2024:05:01 10:12:03").
    public let dateTime: String?
    /// When the picture was taken, from the Exif sub-IFD, as written ("2024:05:01 10:12:03").
    public let dateTimeOriginal: String?
    /// Fractions of a second of `dateTimeOriginal`, as written ("12" is 0.12 s).
    public var subSecTimeOriginal: String? = nil
    /// The zone of `dateTimeOriginal`, as written ("+02:00").
    public var offsetTimeOriginal: String? = nil
    /// The embedded thumbnail (a small JPEG from IFD1), if present.
    public let thumbnail: [UInt8]?
    /// Where the thumbnail's bytes sit in the file, so a camera can serve it by a partial read.
    public let thumbnailRange: Range<UInt64>?
    /// Every tag of the block (none when only the dates were read), for `info --all` and `ExifDetails`.
    public var tags: [ExifTag] = []

    /// True when the orientation turns the picture a quarter, so displayed width and height swap.
    public var swapsDimensions: Bool { (5...8).contains(orientation ?? 1) }
}
