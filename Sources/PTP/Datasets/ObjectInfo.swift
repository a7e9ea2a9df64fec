/// What the device says about one file or folder (GetObjectInfo; PIMA 15740 section 5.5.2).
/// `compressedSize` is 32-bit: for files of 4 GiB and more it saturates at 0xFFFFFFFF and the true size
/// comes from the MTP ObjectSize property, or from `wideCompressedSize` where the device sent 64 bits.
public struct ObjectInfo: Equatable, Sendable {
    public var storageID: UInt32 = 0
    public var format: ObjectFormatCode = .undefined
    public var protectionStatus: UInt16 = 0
    public var compressedSize: UInt32 = 0
    /// ObjectCompressedSize as 64 bits, which some MTP responders send (Samsung Galaxy phones did; the
    /// layout libgphoto2 calls `ocs64`): every later field sits 4 bytes further. nil in the standard
    /// layout; when set, `encoded()` writes the 64-bit layout and `compressedSize` is its low 32 bits,
    /// saturated.
    public var wideCompressedSize: UInt64?
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

    /// The object's size as the device gave it: the 64-bit field where it sent one, else the 32-bit one.
    public var size: UInt64 { wideCompressedSize ?? UInt64(compressedSize) }

    /// Where the file name's count byte is in the standard layout, after 52 bytes of fixed fields.
    static let standardNameOffset = 52
    /// ... and in the layout with a 64-bit ObjectCompressedSize.
    static let wideNameOffset = 56

    /// Decodes either layout. The standard one is taken unless it yields no name (or does not decode)
    /// while the 64-bit one yields a well-formed, non-empty name: libgphoto2's test (the byte where the
    /// standard layout's name count would be is 0, the one 4 bytes on is not) is one case of this; a
    /// non-zero SequenceNumber, which defeats that test, is another.
    public init(decoding bytes: [UInt8]) throws {
        let standard = Result { try ObjectInfo(bytes, wide: false) }
        if case .success(let info) = standard, !info.filename.isEmpty {
            self = info
            return
        }
        if bytes.count > Self.wideNameOffset, bytes[Self.wideNameOffset] != 0,
            let wide = try? ObjectInfo(bytes, wide: true), !wide.filename.isEmpty
        {
            self = wide
            return
        }
        self = try standard.get()
    }

    private init(_ bytes: [UInt8], wide: Bool) throws {
        var r = PTPReader(bytes, context: "ObjectInfo")
        storageID = try r.uint32()
        format = ObjectFormatCode(try r.uint16())
        protectionStatus = try r.uint16()
        if wide {
            let size = try r.uint64()
            wideCompressedSize = size
            compressedSize = UInt32(clamping: size)
        } else {
            compressedSize = try r.uint32()
        }
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
        if let wideCompressedSize { w.uint64(wideCompressedSize) } else { w.uint32(compressedSize) }
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
