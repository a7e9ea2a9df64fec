/// A PTP event code (PIMA 15740 section 12).
public struct EventCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let cancelTransaction = EventCode(0x4001)
    public static let objectAdded = EventCode(0x4002)
    public static let objectRemoved = EventCode(0x4003)
    public static let storeAdded = EventCode(0x4004)
    public static let storeRemoved = EventCode(0x4005)
    public static let devicePropChanged = EventCode(0x4006)
    public static let objectInfoChanged = EventCode(0x4007)
    public static let deviceInfoChanged = EventCode(0x4008)
    public static let requestObjectTransfer = EventCode(0x4009)
    public static let storeFull = EventCode(0x400A)
    public static let deviceReset = EventCode(0x400B)
    public static let storageInfoChanged = EventCode(0x400C)
    public static let captureComplete = EventCode(0x400D)
    public static let unreportedStatus = EventCode(0x400E)

    public var description: String {
        let names: [UInt16: String] = [
            0x4001: "CancelTransaction", 0x4002: "ObjectAdded", 0x4003: "ObjectRemoved",
            0x4004: "StoreAdded", 0x4005: "StoreRemoved", 0x4006: "DevicePropChanged",
            0x4007: "ObjectInfoChanged", 0x4008: "DeviceInfoChanged", 0x400A: "StoreFull",
            0x400B: "DeviceReset", 0x400C: "StorageInfoChanged", 0x400D: "CaptureComplete",
        ]
        return names[rawValue] ?? "Event 0x" + hex4(rawValue)
    }
}
