/// A PTP response code (PIMA 15740 section 11, MTP 0xA8xx).
public struct ResponseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let ok = ResponseCode(0x2001)
    public static let generalError = ResponseCode(0x2002)
    public static let sessionNotOpen = ResponseCode(0x2003)
    public static let invalidTransactionID = ResponseCode(0x2004)
    public static let operationNotSupported = ResponseCode(0x2005)
    public static let parameterNotSupported = ResponseCode(0x2006)
    public static let incompleteTransfer = ResponseCode(0x2007)
    public static let invalidStorageID = ResponseCode(0x2008)
    public static let invalidObjectHandle = ResponseCode(0x2009)
    public static let devicePropNotSupported = ResponseCode(0x200A)
    public static let invalidObjectFormatCode = ResponseCode(0x200B)
    public static let storeFull = ResponseCode(0x200C)
    public static let objectWriteProtected = ResponseCode(0x200D)
    public static let storeReadOnly = ResponseCode(0x200E)
    public static let accessDenied = ResponseCode(0x200F)
    public static let noThumbnailPresent = ResponseCode(0x2010)
    public static let selfTestFailed = ResponseCode(0x2011)
    public static let partialDeletion = ResponseCode(0x2012)
    public static let storeNotAvailable = ResponseCode(0x2013)
    public static let specificationByFormatUnsupported = ResponseCode(0x2014)
    public static let noValidObjectInfo = ResponseCode(0x2015)
    public static let invalidCodeFormat = ResponseCode(0x2016)
    public static let unknownVendorCode = ResponseCode(0x2017)
    public static let captureAlreadyTerminated = ResponseCode(0x2018)
    public static let deviceBusy = ResponseCode(0x2019)
    public static let invalidParentObject = ResponseCode(0x201A)
    public static let invalidDevicePropFormat = ResponseCode(0x201B)
    public static let invalidDevicePropValue = ResponseCode(0x201C)
    public static let invalidParameter = ResponseCode(0x201D)
    public static let sessionAlreadyOpen = ResponseCode(0x201E)
    public static let transactionCancelled = ResponseCode(0x201F)
    public static let specificationOfDestinationUnsupported = ResponseCode(0x2020)
    public static let invalidObjectPropCode = ResponseCode(0xA801)
    public static let invalidObjectPropFormat = ResponseCode(0xA802)
    public static let invalidObjectPropValue = ResponseCode(0xA803)
    public static let invalidObjectReference = ResponseCode(0xA804)
    public static let invalidDataset = ResponseCode(0xA806)
    public static let specificationByGroupUnsupported = ResponseCode(0xA807)
    public static let specificationByDepthUnsupported = ResponseCode(0xA808)
    public static let objectTooLarge = ResponseCode(0xA809)

    /// A short, human description, e.g. "invalid object handle".
    public var description: String {
        let names: [UInt16: String] = [
            0x2001: "OK", 0x2002: "general error", 0x2003: "session not open",
            0x2004: "invalid transaction id", 0x2005: "operation not supported",
            0x2006: "parameter not supported", 0x2007: "incomplete transfer", 0x2008: "invalid storage id",
            0x2009: "invalid object handle", 0x200A: "device property not supported",
            0x200B: "invalid object format", 0x200C: "store full", 0x200D: "object write-protected",
            0x200E: "store read-only", 0x200F: "access denied", 0x2010: "no thumbnail present",
            0x2012: "partial deletion", 0x2013: "store not available", 0x2015: "no valid object info",
            0x2019: "device busy", 0x201A: "invalid parent object", 0x201D: "invalid parameter",
            0x201E: "session already open", 0x201F: "transaction cancelled",
            0xA801: "invalid object property code", 0xA806: "invalid dataset",
            0xA807: "specification by group unsupported", 0xA808: "specification by depth unsupported",
            0xA809: "object too large",
        ]
        return names[rawValue] ?? "response 0x" + hex4(rawValue)
    }
}
