/// What a device says about itself (GetDeviceInfo; PIMA 15740 section 5.5.1).
public struct DeviceInfo: Equatable, Sendable {
    public var standardVersion: UInt16 = 100
    public var vendorExtensionID: UInt32 = 0
    public var vendorExtensionVersion: UInt16 = 0
    public var vendorExtensionDescription: String = ""
    public var functionalMode: UInt16 = 0
    public var operationsSupported: [OperationCode] = []
    public var eventsSupported: [EventCode] = []
    public var devicePropertiesSupported: [DevicePropertyCode] = []
    public var captureFormats: [ObjectFormatCode] = []
    public var imageFormats: [ObjectFormatCode] = []
    public var manufacturer: String = ""
    public var model: String = ""
    public var deviceVersion: String = ""
    public var serialNumber: String = ""

    public init() {}

    public func supports(_ operation: OperationCode) -> Bool { operationsSupported.contains(operation) }

    public init(decoding bytes: [UInt8]) throws {
        var r = PTPReader(bytes, context: "DeviceInfo")
        standardVersion = try r.uint16()
        vendorExtensionID = try r.uint32()
        vendorExtensionVersion = try r.uint16()
        vendorExtensionDescription = try r.string()
        functionalMode = try r.uint16()
        operationsSupported = try r.uint16Array().map(OperationCode.init(rawValue:))
        eventsSupported = try r.uint16Array().map(EventCode.init(rawValue:))
        devicePropertiesSupported = try r.uint16Array().map(DevicePropertyCode.init(rawValue:))
        captureFormats = try r.uint16Array().map(ObjectFormatCode.init(rawValue:))
        imageFormats = try r.uint16Array().map(ObjectFormatCode.init(rawValue:))
        manufacturer = try r.string()
        model = try r.string()
        deviceVersion = try r.string()
        serialNumber = try r.string()
    }

    public func encoded() -> [UInt8] {
        var w = PTPWriter(capacity: 256)
        w.uint16(standardVersion)
        w.uint32(vendorExtensionID)
        w.uint16(vendorExtensionVersion)
        w.string(vendorExtensionDescription)
        w.uint16(functionalMode)
        w.uint16Array(operationsSupported.map(\.rawValue))
        w.uint16Array(eventsSupported.map(\.rawValue))
        w.uint16Array(devicePropertiesSupported.map(\.rawValue))
        w.uint16Array(captureFormats.map(\.rawValue))
        w.uint16Array(imageFormats.map(\.rawValue))
        w.string(manufacturer)
        w.string(model)
        w.string(deviceVersion)
        w.string(serialNumber)
        return w.bytes
    }
}
