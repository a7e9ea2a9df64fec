import Foundation
import MediaManager
import TestSupport
import Testing

@testable import Connectors
@testable import PTPUSB

/// Which camera a `usb:` URL opens among several, over virtual cameras presented as attached.
@Suite("Choosing among USB cameras")
struct USBChoiceTests {
    static let bus = VirtualUSBBus([(model: "EOS R6", serial: "A1"), (model: "Z 6", serial: "B-2"), (model: "EOS R5", serial: "")])

    static func options(firstOfSeveral: Bool, choices: LockedBox<[USBCameraChoice]> = LockedBox([])) -> CameraConnector.Options {
        var options = CameraConnector.Options()
        options.usbBus = bus
        options.opensFirstOfSeveral = firstOfSeveral
        options.onUSBChoice = { choice in choices.mutate { $0.append(choice) } }
        return options
    }

    @Test func urlsNameACameraBySerialOrModel() throws {
        #expect(try CameraURL(parsing: "usb:serial=A1") == .usbSerial("A1"))
        #expect(try CameraURL(parsing: "usb:Model=EOS R") == .usbModel("EOS R"))
        #expect(CameraURL.usbSerial("A1").description == "usb:serial=A1")
        #expect(CameraURL.usbSerial("A1").redactedDescription == "usb:serial=<serial>")
        #expect(throws: CameraURLError.self) { try CameraURL(parsing: "usb:serial=") }
        #expect(throws: CameraURLError.self) { try CameraURL(parsing: "usb:colour=red") }
        let cameras = Self.bus.attached
        #expect(cameras.filter(USBCameraSelector.serial("A1").matches).map(\.address) == [2])
        #expect(cameras.filter(USBCameraSelector.serial("").matches).isEmpty, "an empty serial names nothing")
        #expect(cameras.filter(USBCameraSelector.model("eos").matches).map(\.address) == [2, 4])
        #expect(cameras.filter(USBCameraSelector.model("mediashell z").matches).map(\.address) == [3], "maker and model")
    }

    @Test func onePickIsOpenedAndSeveralAreTold() throws {
        let choices = LockedBox<[USBCameraChoice]>([])
        let camera = try CameraConnector.open(.usbFirst, options: Self.options(firstOfSeveral: true, choices: choices))
        defer { camera.close() }
        #expect(camera.location == "usb:001,002")
        let choice = try #require(choices.value.first)
        #expect(choice.others.map(\.address) == [3, 4])
        // The other two: one by its serial, one (without a serial) by its address.
        #expect(choice.matched == 3 && choice.selectorText == nil)
        #expect(choice.alternatives.map(\.url) == ["usb:serial=B-2", "usb:001,004"])
        #expect(choice.alternatives.map(\.camera) == ["usb:001,003 mediashell Z 6 (serial B-2)", "usb:001,004 mediashell EOS R5"])

        let named = try CameraConnector.open(.usbSerial("B-2"), options: Self.options(firstOfSeveral: false, choices: choices))
        defer { named.close() }
        #expect(named.location == "usb:001,003")
        #expect(named.summary.serialNumber == "B-2")
        #expect(choices.value.count == 1, "no choice was made")
    }

    @Test func exactlyOneIsRequiredWhenAsked() {
        #expect {
            try CameraConnector.open(.usbModel("EOS"), options: Self.options(firstOfSeveral: false))
        } throws: { error in
            guard case CameraOpenError.usb(.ambiguous(_, let matching)) = error else { return false }
            return matching.map { [$0.bus, $0.address] } == [[1, 2], [1, 4]] && matching.map(\.model) == ["EOS R6", "EOS R5"]
        }
        #expect(throws: CameraOpenError.self) { try CameraConnector.open(.usbSerial("nope"), options: Self.options(firstOfSeveral: false)) }
    }
}
