import MediaManager
import Testing

@testable import Connectors
@testable import PTPUSB

/// Which open camera an `open URL` may reach again, and must therefore close first (issue 41, item 6): the
/// USB camera the URL would take when it is the one open (a USB device is claimed once), a Wi-Fi camera at
/// the same host; never an in-process one. Any other stays open until the new camera is.
@Suite struct SameDeviceTests {
    static let bus = VirtualUSBBus([(model: "EOS R6", serial: "A1"), (model: "Z 6", serial: "B2")])

    static func mayReach(_ url: CameraURL, _ opened: CameraURL, at location: String) -> Bool {
        CameraConnector.mayReachSameDevice(url, asOpen: opened, location: location, bus: bus)
    }

    @Test func theUSBCameraTheURLWouldTakeIsTheOneOpen() {
        let opened = CameraURL.usbFirst, location = "usb:001,002"
        for url in [CameraURL.usbFirst, .usbAddress(bus: 1, address: 2), .usbSerial("A1"), .usbModel("eos"),
            .usbID(vendor: VirtualUSBBus.vendorID, product: 1)] {
            #expect(Self.mayReach(url, opened, at: location), "\(url)")
        }
        for url in [CameraURL.usbAddress(bus: 1, address: 3), .usbSerial("B2"), .usbModel("z 6"), .usbSerial("none")] {
            #expect(!Self.mayReach(url, opened, at: location), "\(url)")
        }
        #expect(Self.mayReach(.usbSerial("B2"), .usbAddress(bus: 1, address: 3), at: "usb:001,003"))
        #expect(!Self.mayReach(.usbFirst, .ptpip(host: "192.168.1.1", port: 15740, eventPort: 15740), at: "ptpip:192.168.1.1"))
    }

    @Test func aWiFiCameraAtTheSameHost() {
        let opened = CameraURL.ptpip(host: "Camera.local", port: 15740, eventPort: 15740)
        #expect(Self.mayReach(.ptpip(host: "camera.local", port: 15741, eventPort: 15741), opened, at: "ptpip:camera.local"))
        #expect(Self.mayReach(.fuji(host: "camera.local", port: 55740, eventPort: 55741), opened, at: "ptpip:camera.local"))
        #expect(!Self.mayReach(.ptpip(host: "192.168.1.2", port: 15740, eventPort: 15740), opened, at: "ptpip:camera.local"))
        #expect(!Self.mayReach(.usbFirst, opened, at: "ptpip:camera.local"))
    }

    @Test func inProcessCamerasNeverClash() {
        for opened in [CameraURL.simulator(path: nil), .simulator(path: "/card"), .folder(path: "/card")] {
            for url in [CameraURL.simulator(path: nil), .simulator(path: "/card"), .folder(path: "/card"), .usbFirst] {
                #expect(!Self.mayReach(url, opened, at: opened.description), "\(url) over \(opened)")
            }
        }
    }
}
