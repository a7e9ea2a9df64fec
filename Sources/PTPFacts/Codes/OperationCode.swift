/// A PTP operation code (PIMA 15740 section 10.4, MTP extensions 0x98xx, Android 0x95xx).
public struct OperationCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let getDeviceInfo = OperationCode(0x1001)
    public static let openSession = OperationCode(0x1002)
    public static let closeSession = OperationCode(0x1003)
    public static let getStorageIDs = OperationCode(0x1004)
    public static let getStorageInfo = OperationCode(0x1005)
    public static let getNumObjects = OperationCode(0x1006)
    public static let getObjectHandles = OperationCode(0x1007)
    public static let getObjectInfo = OperationCode(0x1008)
    public static let getObject = OperationCode(0x1009)
    public static let getThumb = OperationCode(0x100A)
    public static let deleteObject = OperationCode(0x100B)
    public static let sendObjectInfo = OperationCode(0x100C)
    public static let sendObject = OperationCode(0x100D)
    public static let initiateCapture = OperationCode(0x100E)
    public static let formatStore = OperationCode(0x100F)
    public static let resetDevice = OperationCode(0x1010)
    public static let selfTest = OperationCode(0x1011)
    public static let setObjectProtection = OperationCode(0x1012)
    public static let powerDown = OperationCode(0x1013)
    public static let getDevicePropDesc = OperationCode(0x1014)
    public static let getDevicePropValue = OperationCode(0x1015)
    public static let setDevicePropValue = OperationCode(0x1016)
    public static let resetDevicePropValue = OperationCode(0x1017)
    public static let terminateOpenCapture = OperationCode(0x1018)
    public static let moveObject = OperationCode(0x1019)
    public static let copyObject = OperationCode(0x101A)
    public static let getPartialObject = OperationCode(0x101B)
    public static let initiateOpenCapture = OperationCode(0x101C)
    /// Android's 64-bit offset twin of GetPartialObject: (handle, offset low, offset high, count).
    public static let getPartialObject64 = OperationCode(0x95C1)
    public static let getObjectPropsSupported = OperationCode(0x9801)
    public static let getObjectPropDesc = OperationCode(0x9802)
    public static let getObjectPropValue = OperationCode(0x9803)
    public static let setObjectPropValue = OperationCode(0x9804)
    /// MTP: many properties of many objects in one request.
    public static let getObjectPropList = OperationCode(0x9805)

    public var description: String {
        let names: [UInt16: String] = [
            0x1001: "GetDeviceInfo", 0x1002: "OpenSession", 0x1003: "CloseSession", 0x1004: "GetStorageIDs",
            0x1005: "GetStorageInfo", 0x1006: "GetNumObjects", 0x1007: "GetObjectHandles",
            0x1008: "GetObjectInfo", 0x1009: "GetObject", 0x100A: "GetThumb", 0x100B: "DeleteObject",
            0x100C: "SendObjectInfo", 0x100D: "SendObject", 0x100E: "InitiateCapture",
            0x1014: "GetDevicePropDesc", 0x1015: "GetDevicePropValue", 0x1016: "SetDevicePropValue",
            0x1018: "TerminateOpenCapture", 0x101B: "GetPartialObject", 0x101C: "InitiateOpenCapture", 0x95C1: "GetPartialObject64", 0x9801: "GetObjectPropsSupported",
            0x9802: "GetObjectPropDesc", 0x9803: "GetObjectPropValue", 0x9805: "GetObjectPropList",
        ]
        return names[rawValue] ?? Self.vendorNames[rawValue] ?? "Operation 0x" + hex4(rawValue)
    }
}

extension OperationCode {
    /// Operations whose command the initiator follows with a data phase towards the responder: what a
    /// responder on a transport that does not announce one (USB, Fuji's Wi-Fi) goes by.
    public static let sendingDataToResponder: Set<UInt16> = [
        0x100C,  // SendObjectInfo
        0x100D,  // SendObject
        0x1016,  // SetDevicePropValue
        0x9804,  // SetObjectPropValue
        0x9808,  // SendObjectPropList
        0x900C,  // Fuji SendObjectInfo
        0x900D,  // Fuji SendObject2
        0x901D,  // Fuji SendObject
        0x9040,  // Fuji FmSendObjectInfo
        0x9041,  // Fuji FmSendObject
        0x9042,  // Fuji FmSendPartialObject
    ]
}

package func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// A handle or storage ID as eight lowercase hex digits, as listings and their problems name objects.
package func hex8(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
