/// What the device says about one file or folder (GetObjectInfo; PIMA 15740 section 5.5.2).
/// `compressedSize` is 32-bit: for files of 4 GiB and more it saturates at 0xFFFFFFFF and the true size
/// comes from the MTP ObjectSize property.
public struct ObjectInfo: Equatable, Sendable {
    public var storageID: UInt32 = 0
    public var format: ObjectFormatCode = .undefined
    public var protectionStatus: UInt16 = 0
    public var compressedSize: UInt32 = 0
    public var thumbFormat: ObjectFormatCode = .undefined
    public var thumbCompressedSize: UInt32 = 0
    public var thumbPixWidth: UInt32 = 0
    public var thumbPixHeight: UInt32 = 0
    public var imagePixWidth: UInt32 = 0
    public var imagePixHeight: UInt32 = 0
    public var imageBitDepth: UInt32 = 0
    public var parentObject: UInt32 = 0
    /// 1 = generic folder (for association objects).
    public var associationType: UInt16 = 0
    public var associationDescription: UInt32 = 0
    public var sequenceNumber: UInt32 = 0
    public var filename: String = ""
    public var captureDate: String = ""
    public var modificationDate: String = ""
    public var keywords: String = ""

    public init() {}

    public var isFolder: Bool { format == .association }

    public init(decoding bytes: [UInt8]) throws {
        var r = PTPReader(bytes, context: "ObjectInfo")
        storageID = try r.uint32()
        format = ObjectFormatCode(try r.uint16())
        protectionStatus = try r.uint16()
        compressedSize = try r.uint32()
        thumbFormat = ObjectFormatCode(try r.uint16())
        thumbCompressedSize = try r.uint32()
        thumbPixWidth = try r.uint32()
        thumbPixHeight = try r.uint32()
        imagePixWidth = try r.uint32()
        imagePixHeight = try r.uint32()
        imageBitDepth = try r.uint32()
        parentObject = try r.uint32()
        associationType = try r.uint16()
        associationDescription = try r.uint32()
        sequenceNumber = try r.uint32()
        filename = try r.string()
        // Some devices end the dataset early; the trailing strings are optional in practice.
        captureDate = r.isAtEnd ? "" : try r.string()
        modificationDate = r.isAtEnd ? "" : try r.string()
        keywords = r.isAtEnd ? "" : try r.string()
    }

    public func encoded() -> [UInt8] {
        var w = PTPWriter(capacity: 128)
        w.uint32(storageID)
        w.uint16(format.rawValue)
        w.uint16(protectionStatus)
        w.uint32(compressedSize)
        w.uint16(thumbFormat.rawValue)
        w.uint32(thumbCompressedSize)
        w.uint32(thumbPixWidth)
        w.uint32(thumbPixHeight)
        w.uint32(imagePixWidth)
        w.uint32(imagePixHeight)
        w.uint32(imageBitDepth)
        w.uint32(parentObject)
        w.uint16(associationType)
        w.uint32(associationDescription)
        w.uint32(sequenceNumber)
        w.string(filename)
        w.string(captureDate)
        w.string(modificationDate)
        w.string(keywords)
        return w.bytes
    }
}
