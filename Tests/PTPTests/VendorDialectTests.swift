import Testing

@testable import PTP

/// A trace names vendor operations as the device's vendor does, told by its DeviceInfo (issue 26).
@Suite struct VendorDialectTests {
    static func info(vendor: UInt32, manufacturer: String) -> DeviceInfo {
        var info = DeviceInfo()
        info.vendorExtensionID = vendor
        info.manufacturer = manufacturer
        return info
    }

    @Test func theDialectComesFromTheVendorIDOrTheManufacturer() {
        #expect(VendorDialect(Self.info(vendor: 0x0B, manufacturer: "")) == .canon)
        // PTP/IP cameras often say 6 (Microsoft, MTP): the manufacturer tells.
        #expect(VendorDialect(Self.info(vendor: 6, manufacturer: "Canon Inc.")) == .canon)
        #expect(VendorDialect(Self.info(vendor: 6, manufacturer: "Nikon Corporation")) == .nikon)
        #expect(VendorDialect(Self.info(vendor: 0x0E, manufacturer: "FUJIFILM")) == .fujifilm)
        #expect(VendorDialect(Self.info(vendor: 6, manufacturer: "mediashell")) == .standard)
    }

    @Test func oneCodeIsNamedAsEachVendorNamesIt() {
        let event = OperationCode(0x9116)
        #expect(VendorDialect.canon.name(of: event) == "GetEvent")
        #expect(VendorDialect.nikon.name(of: OperationCode(0x90C7)) == "GetEvent")
        #expect(VendorDialect.nikon.name(of: OperationCode(0x90C0)) == "InitiateCaptureRecInSdram")
        #expect(VendorDialect.standard.name(of: event) == event.description, "the standard name, whatever it is")
        // Standard and MTP operations keep their names in every dialect.
        #expect(VendorDialect.canon.name(of: .getObjectPropList) == "GetObjectPropList")
        #expect(VendorDialect.nikon.name(of: .getObjectInfo) == "GetObjectInfo")
    }
}
