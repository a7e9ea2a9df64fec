/// One endpoint as its descriptor describes it.
public struct USBEndpointSummary: Equatable, Sendable {
    /// bEndpointAddress: bit 7 set for IN.
    public var address: UInt8
    /// bmAttributes & 3: 2 bulk, 3 interrupt.
    public var transferType: UInt8
    public var maxPacketSize: Int

    public init(address: UInt8, transferType: UInt8, maxPacketSize: Int) {
        self.address = address
        self.transferType = transferType
        self.maxPacketSize = maxPacketSize
    }

    public var isIn: Bool { address & 0x80 != 0 }
    public var isBulk: Bool { transferType == 2 }
    public var isInterrupt: Bool { transferType == 3 }
}

/// One interface (alternate setting) as its descriptor describes it, with its name when it has one.
public struct USBInterfaceSummary: Equatable, Sendable {
    public var number: Int
    public var alternateSetting: Int
    public var interfaceClass: UInt8
    public var subclass: UInt8
    public var interfaceProtocol: UInt8
    /// The iInterface string, when it was read.
    public var name: String?
    public var endpoints: [USBEndpointSummary]

    public init(
        number: Int, alternateSetting: Int = 0, interfaceClass: UInt8, subclass: UInt8, interfaceProtocol: UInt8,
        name: String? = nil, endpoints: [USBEndpointSummary]
    ) {
        self.number = number
        self.alternateSetting = alternateSetting
        self.interfaceClass = interfaceClass
        self.subclass = subclass
        self.interfaceProtocol = interfaceProtocol
        self.name = name
        self.endpoints = endpoints
    }

    public var isStillImage: Bool { interfaceClass == 6 && subclass == 1 && interfaceProtocol == 1 }
    public var isVendorSpecific: Bool { interfaceClass == 0xFF }

    /// The three endpoints PTP uses; nil without a bulk pair.
    public var ptpEndpoints: (bulkIn: USBEndpointSummary, bulkOut: USBEndpointSummary, interruptIn: USBEndpointSummary?)? {
        guard let bulkIn = endpoints.first(where: { $0.isBulk && $0.isIn }),
            let bulkOut = endpoints.first(where: { $0.isBulk && !$0.isIn })
        else { return nil }
        return (bulkIn, bulkOut, endpoints.first { $0.isInterrupt && $0.isIn })
    }
}

/// Decides whether a device speaks PTP and on which interface: pure logic over descriptors, so it is
/// tested without a bus.
public enum USBInterfaceMatch {
    /// The PTP interface of a device and how it was announced, or nil.
    /// - Parameter microsoftCompatibleID: the compatible id from the Microsoft OS descriptor ("MTP"), when
    ///   the device has one and it was read.
    public static func ptpInterface(
        in interfaces: [USBInterfaceSummary], microsoftCompatibleID: String? = nil
    ) -> (USBInterfaceSummary, USBCameraDescription.Announcement)? {
        let usable = interfaces.filter { $0.ptpEndpoints != nil }
        if let still = usable.first(where: \.isStillImage) { return (still, .stillImageClass) }
        let vendor = usable.filter(\.isVendorSpecific)
        if let named = vendor.first(where: { ($0.name ?? "").uppercased().contains("MTP") }) {
            return (named, .mtpInterfaceName)
        }
        if microsoftCompatibleID?.uppercased().hasPrefix("MTP") == true, let first = vendor.first {
            return (first, .microsoftOSDescriptor)
        }
        return nil
    }

    /// True when the device is worth asking for its Microsoft OS descriptor: it has a vendor-specific
    /// interface with bulk endpoints and nothing that already settles the question.
    public static func needsMicrosoftDescriptor(_ interfaces: [USBInterfaceSummary]) -> Bool {
        ptpInterface(in: interfaces) == nil && interfaces.contains { $0.isVendorSpecific && $0.ptpEndpoints != nil }
    }

    /// The compatible id in a Microsoft "Extended Compat ID" feature descriptor (wIndex 4): 16-byte
    /// header, then per function: first interface, a reserved byte, 8 bytes of compatible id.
    public static func compatibleID(fromExtendedCompatDescriptor bytes: [UInt8]) -> String? {
        guard bytes.count >= 16 + 24 else { return nil }
        let id = bytes[18..<26].prefix { $0 != 0 }
        let text = String(decoding: id, as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}
