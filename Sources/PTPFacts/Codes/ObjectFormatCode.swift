/// A PTP/MTP object format code: what kind of file (or folder) an object is.
public struct ObjectFormatCode: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let undefined = ObjectFormatCode(0x3000)
    /// A folder.
    public static let association = ObjectFormatCode(0x3001)
    public static let script = ObjectFormatCode(0x3002)
    public static let executable = ObjectFormatCode(0x3003)
    public static let text = ObjectFormatCode(0x3004)
    public static let html = ObjectFormatCode(0x3005)
    public static let dpof = ObjectFormatCode(0x3006)
    public static let aiff = ObjectFormatCode(0x3007)
    public static let wav = ObjectFormatCode(0x3008)
    public static let mp3 = ObjectFormatCode(0x3009)
    public static let avi = ObjectFormatCode(0x300A)
    public static let mpeg = ObjectFormatCode(0x300B)
    public static let asf = ObjectFormatCode(0x300C)
    /// QuickTime .MOV (PTP 1.1).
    public static let quickTime = ObjectFormatCode(0x300D)
    public static let unknownImage = ObjectFormatCode(0x3800)
    public static let exifJPEG = ObjectFormatCode(0x3801)
    public static let tiffEP = ObjectFormatCode(0x3802)
    public static let flashPix = ObjectFormatCode(0x3803)
    public static let bmp = ObjectFormatCode(0x3804)
    public static let gif = ObjectFormatCode(0x3807)
    public static let png = ObjectFormatCode(0x380B)
    public static let tiff = ObjectFormatCode(0x380D)
    public static let jp2 = ObjectFormatCode(0x380F)
    /// Digital negative (PTP 1.1).
    public static let dng = ObjectFormatCode(0x3811)
    public static let heif = ObjectFormatCode(0x3812)
    public static let mp4Container = ObjectFormatCode(0xB982)
    public static let threeGPContainer = ObjectFormatCode(0xB984)

    /// Images have thumbnails in PTP (format codes 0x38xx).
    public var isImage: Bool { rawValue & 0xF800 == 0x3800 }
}
