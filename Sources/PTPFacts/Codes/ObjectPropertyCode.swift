/// An MTP object property code (MTP 1.1 appendix B), used by GetObjectPropList.
public struct ObjectPropertyCode: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let storageID = ObjectPropertyCode(0xDC01)
    public static let objectFormat = ObjectPropertyCode(0xDC02)
    public static let protectionStatus = ObjectPropertyCode(0xDC03)
    /// The true 64-bit size, where ObjectInfo's 32-bit field saturates at 0xFFFFFFFF.
    public static let objectSize = ObjectPropertyCode(0xDC04)
    public static let objectFileName = ObjectPropertyCode(0xDC07)
    public static let dateCreated = ObjectPropertyCode(0xDC08)
    public static let dateModified = ObjectPropertyCode(0xDC09)
    public static let parentObject = ObjectPropertyCode(0xDC0B)
    public static let persistentUniqueObjectIdentifier = ObjectPropertyCode(0xDC41)
    public static let name = ObjectPropertyCode(0xDC44)
    public static let width = ObjectPropertyCode(0xDC87)
    public static let height = ObjectPropertyCode(0xDC88)
    /// Milliseconds.
    public static let duration = ObjectPropertyCode(0xDC89)
    public static let videoFourCCCodec = ObjectPropertyCode(0xDE9B)
    public static let framesPerThousandSeconds = ObjectPropertyCode(0xDE9D)
    public static let keyFrameDistance = ObjectPropertyCode(0xDE9E)
}

/// A PTP data type code (PIMA 15740 section 5.3), used in property lists.
public struct DataTypeCode: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let int8 = DataTypeCode(0x0001)
    public static let uint8 = DataTypeCode(0x0002)
    public static let int16 = DataTypeCode(0x0003)
    public static let uint16 = DataTypeCode(0x0004)
    public static let int32 = DataTypeCode(0x0005)
    public static let uint32 = DataTypeCode(0x0006)
    public static let int64 = DataTypeCode(0x0007)
    public static let uint64 = DataTypeCode(0x0008)
    public static let int128 = DataTypeCode(0x0009)
    public static let uint128 = DataTypeCode(0x000A)
    public static let string = DataTypeCode(0xFFFF)

    /// Array types are the scalar code with bit 0x4000 set.
    public var isArray: Bool { rawValue & 0xFFF0 == 0x4000 }
    public var elementType: DataTypeCode { DataTypeCode(rawValue & 0x0FFF) }

    /// Width in bytes of a scalar integer type, nil for strings, arrays and unknown codes.
    public var scalarWidth: Int? {
        switch rawValue {
        case 0x1, 0x2: 1
        case 0x3, 0x4: 2
        case 0x5, 0x6: 4
        case 0x7, 0x8: 8
        case 0x9, 0xA: 16
        default: nil
        }
    }
}

/// A PTP device property code (PIMA 15740 section 13).
public struct DevicePropertyCode: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let batteryLevel = DevicePropertyCode(0x5001)
    public static let imageSize = DevicePropertyCode(0x5003)
    public static let whiteBalance = DevicePropertyCode(0x5005)
    public static let fNumber = DevicePropertyCode(0x5007)
    public static let exposureTime = DevicePropertyCode(0x500D)
    public static let exposureIndex = DevicePropertyCode(0x500F)
    public static let dateTime = DevicePropertyCode(0x5011)
    public static let captureMode = DevicePropertyCode(0x5013)
    /// The virtual camera's work mode (u8: 0 shoot, 1 download), like a drone's camera mode: media on the
    /// card can be read and deleted only in download mode. Vendor range; real cameras do not have it.
    public static let workMode = DevicePropertyCode(0xD001)
}
