import TestSupport
import Testing
@testable import MediaManager

@Suite(.tags(.port), .notInFastRun) struct CameraURLTests {
    @Test func parsesEveryForm() throws {
        #expect(try CameraURL(parsing: "usb:") == .usbFirst)
        #expect(try CameraURL(parsing: "usb:001,004") == .usbAddress(bus: 1, address: 4))
        #expect(try CameraURL(parsing: "usb:04a9:32B4") == .usbID(vendor: 0x04A9, product: 0x32B4))
        #expect(try CameraURL(parsing: "ptpip:192.168.1.1") == .ptpip(host: "192.168.1.1", port: 15740, eventPort: 15740))
        #expect(try CameraURL(parsing: "ptpip:127.0.0.1:1234") == .ptpip(host: "127.0.0.1", port: 1234, eventPort: 1234))
        #expect(try CameraURL(parsing: "ptpip:127.0.0.1:1234:1235") == .ptpip(host: "127.0.0.1", port: 1234, eventPort: 1235))
        #expect(try CameraURL(parsing: "ptpip:[::1]:99") == .ptpip(host: "::1", port: 99, eventPort: 99))
        #expect(try CameraURL(parsing: "dir:/media/card") == .folder(path: "/media/card"))
        #expect(try CameraURL(parsing: "sim:") == .simulator(path: nil))
        #expect(try CameraURL(parsing: "sim:/tmp/x") == .simulator(path: "/tmp/x"))
    }

    /// A Fujifilm body on Wi-Fi: 55740 unless told, the event port the next one unless told.
    @Test func parsesFuji() throws {
        #expect(try CameraURL(parsing: "fuji:192.168.0.1") == .fuji(host: "192.168.0.1", port: 55740, eventPort: 55741))
        #expect(try CameraURL(parsing: "FUJI:127.0.0.1:4000") == .fuji(host: "127.0.0.1", port: 4000, eventPort: 4001))
        #expect(try CameraURL(parsing: "fuji:127.0.0.1:4000:5000") == .fuji(host: "127.0.0.1", port: 4000, eventPort: 5000))
        #expect(try CameraURL(parsing: "fuji:[::1]") == .fuji(host: "::1", port: 55740, eventPort: 55741))
        // The live-view port is written only when it is not the one after the event port.
        #expect(try CameraURL(parsing: "fuji:h:4000:5000:6000") == .fuji(host: "h", port: 4000, eventPort: 5000, liveViewPort: 6000))
        #expect(try CameraURL(parsing: "fuji:h:4000:5000:5001") == .fuji(host: "h", port: 4000, eventPort: 5000))
        for text in ["fuji:192.168.0.1:55740", "fuji:h:4000:5000", "fuji:h:4000:5000:6000"] {
            #expect(try CameraURL(parsing: text).description == text)
        }
        #expect(CameraURL.fuji(host: "camera.local", port: 55740, eventPort: 55741).redactedDescription == "fuji:<host>:55740")
        for bad in ["fuji:", "fuji:h:0", "fuji:h:1:2:3:4", "fuji:h:1:2:0"] {
            #expect(throws: CameraURLError.self, "\(bad)") { try CameraURL(parsing: bad) }
        }
    }

    /// One address format everywhere: `devices` lists `usb:001,004`, and the URL says the same.
    @Test func aUSBAddressIsWrittenAsDevicesListsIt() throws {
        #expect(try CameraURL(parsing: "usb:1,4").description == "usb:001,004")
        #expect(CameraURL.usbAddress(bus: 12, address: 104).description == "usb:012,104")
    }

    @Test func rejectsNonsenseWithAClearMessage() {
        for bad in ["", "camera", "ftp:x", "usb:1", "usb:12345:1", "usb:zz,1", "ptpip:", "ptpip:h:0", "ptpip:h:70000", "ptpip:h:1:2:3", "dir:"] {
            #expect(throws: CameraURLError.self, "\(bad)") { try CameraURL(parsing: bad) }
        }
    }

    @Test func describesItselfAsParsed() throws {
        for text in ["usb:", "usb:001,004", "usb:04a9:32b4", "ptpip:10.0.0.1:15740", "ptpip:h:1:2", "dir:/x", "sim:"] {
            #expect(try CameraURL(parsing: text).description == text)
        }
    }
}
