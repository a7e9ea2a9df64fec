/// Whose extension of PTP a device speaks (DeviceInfo's VendorExtensionID; the values PIMA assigned, as
/// libgphoto2's `ptp.h` lists them). The id chooses the vendor's operations, events and properties.
public struct VendorExtensionID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    /// No vendor extension: standard PTP.
    public static let none = VendorExtensionID(0)
    public static let eastmanKodak = VendorExtensionID(0x1)
    /// Microsoft's, i.e. MTP; many cameras (newer Canon and Nikon bodies) say this and name their maker
    /// only in the manufacturer string.
    public static let microsoft = VendorExtensionID(0x6)
    public static let nikon = VendorExtensionID(0xA)
    public static let canon = VendorExtensionID(0xB)
    public static let pentax = VendorExtensionID(0xD)
    public static let fuji = VendorExtensionID(0xE)
    public static let sony = VendorExtensionID(0x11)
    public static let panasonic = VendorExtensionID(0x1C)
    /// What some MTP devices write (all ones).
    public static let mtp = VendorExtensionID(0xFFFF_FFFF)

    public var description: String {
        switch self {
        case .none: "none"
        case .eastmanKodak: "Kodak"
        case .microsoft: "Microsoft/MTP"
        case .nikon: "Nikon"
        case .canon: "Canon"
        case .pentax: "Pentax"
        case .fuji: "Fujifilm"
        case .sony: "Sony"
        case .panasonic: "Panasonic"
        case .mtp: "MTP"
        default: "vendor 0x" + String(rawValue, radix: 16)
        }
    }
}

extension DeviceInfo {
    /// The vendor whose extension the device speaks. A camera that says Microsoft/MTP (or nothing) but
    /// names Canon or Nikon as its manufacturer speaks that vendor's extension all the same (libgphoto2
    /// reads DeviceInfo the same way: newer Canon and Nikon bodies report MTP).
    public var vendor: VendorExtensionID {
        let declared = VendorExtensionID(vendorExtensionID)
        guard declared == .none || declared == .microsoft || declared == .mtp else { return declared }
        let maker = manufacturer.lowercased()
        if maker.contains("canon") { return .canon }
        if maker.contains("nikon") { return .nikon }
        return declared
    }
}
