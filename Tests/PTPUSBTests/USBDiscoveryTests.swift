import Foundation
import PTP
import Testing

@testable import PTPUSB

@Suite("USB discovery, descriptions and errors")
struct USBDiscoveryTests {
    static let bulkTrio = [
        USBEndpointSummary(address: 0x81, transferType: 2, maxPacketSize: 512),
        USBEndpointSummary(address: 0x02, transferType: 2, maxPacketSize: 512),
        USBEndpointSummary(address: 0x83, transferType: 3, maxPacketSize: 64),
    ]

    @Test func stillImageInterfaceIsACamera() throws {
        let interfaces = [
            USBInterfaceSummary(number: 0, interfaceClass: 8, subclass: 6, interfaceProtocol: 0x50, endpoints: Self.bulkTrio),
            USBInterfaceSummary(number: 1, interfaceClass: 6, subclass: 1, interfaceProtocol: 1, endpoints: Self.bulkTrio),
        ]
        let match = try #require(USBInterfaceMatch.ptpInterface(in: interfaces))
        #expect(match.0.number == 1 && match.1 == .stillImageClass)
        let endpoints = try #require(match.0.ptpEndpoints)
        #expect(endpoints.bulkIn.address == 0x81 && endpoints.bulkOut.address == 0x02 && endpoints.interruptIn?.address == 0x83)
    }

    @Test func vendorInterfaceNamedMTPIsACamera() throws {
        let interfaces = [
            USBInterfaceSummary(number: 0, interfaceClass: 0xFF, subclass: 0xFF, interfaceProtocol: 0, name: "MTP", endpoints: Self.bulkTrio),
            USBInterfaceSummary(number: 1, interfaceClass: 0xFF, subclass: 0x42, interfaceProtocol: 1, name: "ADB Interface", endpoints: Self.bulkTrio),
        ]
        let match = try #require(USBInterfaceMatch.ptpInterface(in: interfaces))
        #expect(match.0.number == 0 && match.1 == .mtpInterfaceName)
    }

    @Test func microsoftOSDescriptorMakesAVendorInterfaceMTP() throws {
        let interfaces = [
            USBInterfaceSummary(number: 0, interfaceClass: 0xFF, subclass: 0xFF, interfaceProtocol: 0, endpoints: Self.bulkTrio)
        ]
        #expect(USBInterfaceMatch.ptpInterface(in: interfaces) == nil)
        #expect(USBInterfaceMatch.needsMicrosoftDescriptor(interfaces))
        // Extended Compat ID descriptor: 16-byte header, then interface 0, reserved 1, "MTP" padded to 8.
        var descriptor = [UInt8](repeating: 0, count: 40)
        descriptor[0] = 40
        descriptor[4] = 4
        descriptor[8] = 1
        descriptor[17] = 1
        descriptor.replaceSubrange(18..<21, with: Array("MTP".utf8))
        let id = USBInterfaceMatch.compatibleID(fromExtendedCompatDescriptor: descriptor)
        #expect(id == "MTP")
        let match = try #require(USBInterfaceMatch.ptpInterface(in: interfaces, microsoftCompatibleID: id))
        #expect(match.1 == .microsoftOSDescriptor)
        #expect(USBInterfaceMatch.compatibleID(fromExtendedCompatDescriptor: [1, 2, 3]) == nil)
    }

    @Test func otherDevicesAreNotCameras() {
        let massStorage = [USBInterfaceSummary(number: 0, interfaceClass: 8, subclass: 6, interfaceProtocol: 0x50, endpoints: Self.bulkTrio)]
        #expect(USBInterfaceMatch.ptpInterface(in: massStorage) == nil)
        #expect(!USBInterfaceMatch.needsMicrosoftDescriptor(massStorage))
        let noBulk = [
            USBInterfaceSummary(
                number: 0, interfaceClass: 6, subclass: 1, interfaceProtocol: 1,
                endpoints: [USBEndpointSummary(address: 0x83, transferType: 3, maxPacketSize: 8)])
        ]
        #expect(USBInterfaceMatch.ptpInterface(in: noBulk) == nil)
    }

    @Test func descriptionsAndSelectors() {
        let camera = USBCameraDescription(
            bus: 1, address: 4, vendorID: 0x46F4, productID: 0x0004, manufacturer: "QEMU", model: "QEMU filesharing")
        #expect(camera.url == "usb:001,004")
        #expect(camera.usbID == "46f4:0004")
        #expect(camera.displayName == "QEMU QEMU filesharing")
        #expect(USBCameraDescription(bus: 2, address: 9, vendorID: 1, productID: 2).displayName == "USB device 0001:0002")
        #expect(USBCameraSelector.first.matches(camera))
        #expect(USBCameraSelector.address(bus: 1, address: 4).matches(camera))
        #expect(!USBCameraSelector.address(bus: 1, address: 5).matches(camera))
        #expect(USBCameraSelector.id(vendor: 0x46F4, product: 4).matches(camera))
        #expect(USBCameraSelector.id(vendor: 0x46F4, product: 4).description == "usb:46f4:0004")
    }

    @Test func libUSBErrorsNameTheirCode() {
        #expect(LibUSBError.access.name == "LIBUSB_ERROR_ACCESS")
        #expect(LibUSBError.busy.rawValue == -6)
        #expect(LibUSBError.timeout.name == "LIBUSB_ERROR_TIMEOUT")
        #expect(LibUSBError(rawValue: -1234).name == "**UNKNOWN**")
        let error: Error = LibUSBError.pipe
        switch error {
        case LibUSBError.pipe: break
        default: Issue.record("pattern match on LibUSBError")
        }
    }


    @Test func aMachineWithoutUSBHasNoCameras() throws {
        // On a machine with a bus this lists whatever is attached; it must never crash or hang.
        let cameras = USBTransport.cameras()
        if !FileManager.default.fileExists(atPath: "/dev/bus/usb") {
            #expect(cameras.isEmpty)
            #expect(throws: USBCameraError.self) { try USBTransport.open(.first) }
        }
    }

    @Test func deviceStatusDecoding() throws {
        let status = try USBDeviceStatus(decoding: [12, 0, 0x19, 0x20, 0x81, 0, 0, 0, 0x02, 0, 0, 0])
        #expect(status.code == .deviceBusy && status.haltedEndpoints == [0x81, 0x02])
        #expect(try USBDeviceStatus(decoding: USBDeviceStatus.encode(status)) == status)
        #expect(throws: PTPError.self) { try USBDeviceStatus(decoding: [4, 0]) }
        // A length field larger than the bytes is clamped, never trusted.
        #expect(try USBDeviceStatus(decoding: [200, 0, 1, 0x20]).haltedEndpoints.isEmpty)
    }
}
