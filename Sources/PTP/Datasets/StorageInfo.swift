/// One store on the device, e.g. an SD card (GetStorageInfo; PIMA 15740 section 5.5.3).
public struct StorageInfo: Equatable, Sendable {
    public enum StorageType: UInt16, Sendable { case undefined = 0, fixedROM, removableROM, fixedRAM, removableRAM }
    public enum AccessCapability: UInt16, Sendable { case readWrite = 0, readOnly, readOnlyWithDeletion }

    public var storageType: UInt16 = StorageType.removableRAM.rawValue
    /// 2 generic hierarchical, 3 DCF.
    public var filesystemType: UInt16 = 3
    public var accessCapability: UInt16 = AccessCapability.readWrite.rawValue
    public var maxCapacity: UInt64 = 0
    public var freeSpaceInBytes: UInt64 = 0
    public var freeSpaceInImages: UInt32 = 0xFFFF_FFFF
    public var storageDescription: String = ""
    public var volumeLabel: String = ""

    public init() {}

    public var isReadOnly: Bool { accessCapability != AccessCapability.readWrite.rawValue }

    public init(decoding bytes: [UInt8]) throws {
        var r = PTPReader(bytes, context: "StorageInfo")
        storageType = try r.uint16()
        filesystemType = try r.uint16()
        accessCapability = try r.uint16()
        maxCapacity = try r.uint64()
        freeSpaceInBytes = try r.uint64()
        freeSpaceInImages = try r.uint32()
        storageDescription = try r.string()
        volumeLabel = try r.string()
    }

    public func encoded() -> [UInt8] {
        var w = PTPWriter()
        w.uint16(storageType)
        w.uint16(filesystemType)
        w.uint16(accessCapability)
        w.uint64(maxCapacity)
        w.uint64(freeSpaceInBytes)
        w.uint32(freeSpaceInImages)
        w.string(storageDescription)
        w.string(volumeLabel)
        return w.bytes
    }
}
