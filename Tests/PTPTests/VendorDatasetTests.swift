import TestSupport
import Testing

@testable import PTP

/// The vendor datasets both sides speak: who a DeviceInfo says it is, Canon EOS GetEvent records and Nikon
/// GetEvent lists, decoded from hostile bytes without a crash.
@Suite(.tags(.process), .notInFastRun) struct VendorDatasetTests {
    @Test func theVendorComesFromTheExtensionIDOrTheManufacturerOfAnMTPCamera() {
        var info = DeviceInfo()
        #expect(info.vendor == .none)
        info.vendorExtensionID = 0xB
        #expect(info.vendor == .canon)
        info.vendorExtensionID = 6
        info.manufacturer = "Nikon Corporation"
        #expect(info.vendor == .nikon)
        info.manufacturer = "Canon Inc."
        #expect(info.vendor == .canon)
        info.vendorExtensionID = 0
        info.manufacturer = "mediashell"
        #expect(info.vendor == .none)
        // A declared vendor wins over the manufacturer's name.
        info.vendorExtensionID = 0xE
        info.manufacturer = "Canon Inc."
        #expect(info.vendor == .fuji)
    }

    @Test func eosRecordsRoundTripWithTheirEndRecord() {
        let records: [CanonEOSEvent] = [
            .propertyValue(.canonEOSBatteryPower, [3, 0, 0, 0]),
            .allowedValues(.canonEOSISOSpeed, form: 3, values: [0x48, 0x50, 0x58]),
            .objectAdded(CanonEOSObject(handle: 0x9000_0001, storageID: 0x1000_0001, format: .exifJPEG, size: 1234, parent: 0x9000_0000, name: "IMG_0001.JPG")),
            .objectRemoved(handle: 7),
            .cameraStatus(1),
            .other(type: 0xC1A5, payload: [1, 2, 3, 4]),
        ]
        let bytes = CanonEOSEvent.encode(records)
        #expect(bytes.suffix(8) == [8, 0, 0, 0, 0, 0, 0, 0])
        #expect(CanonEOSEvent.decode(bytes) == records)
        // The ObjectAddedEx layout libgphoto2 reads: handle at 8, storage at 0x0C, format at 0x10, size at
        // 0x1C, parent at 0x20, the name at 0x28.
        let added = CanonEOSEvent.encode([records[2]])
        #expect(added[4..<8] == [0x81, 0xC1, 0, 0])
        #expect(added[0x10..<0x12] == [0x01, 0x38])
        #expect(added[0x1C..<0x20] == [0xD2, 0x04, 0, 0])
        #expect(Array(added[0x28..<0x34]) == Array("IMG_0001.JPG".utf8))
    }

    @Test func anEmptyAnswerOrAnEndRecordAloneIsNoEvents() {
        #expect(CanonEOSEvent.decode([]).isEmpty)
        #expect(CanonEOSEvent.decode([8, 0, 0, 0, 0, 0, 0, 0]).isEmpty)
    }

    @Test func hostileEOSRecordsEndTheDecodingWithoutACrash() {
        let good = CanonEOSEvent.encode([.cameraStatus(0)])
        // A size below the header, a size past the end, a huge allowed-values count.
        var tooSmall = good
        tooSmall[0] = 4
        #expect(CanonEOSEvent.decode(tooSmall).isEmpty)
        var tooBig = good
        tooBig[0] = 0xFF
        tooBig[1] = 0xFF
        #expect(CanonEOSEvent.decode(tooBig).isEmpty)
        var lying = CanonEOSEvent.encode([.allowedValues(.canonEOSAperture, form: 3, values: [1, 2])])
        lying[0x10] = 0xFF
        lying[0x11] = 0xFF
        #expect(CanonEOSEvent.decode(lying) == [.allowedValues(.canonEOSAperture, form: 3, values: [1, 2])])
        // A short ObjectAddedEx is kept as an unknown record, not read past its end.
        let short: [UInt8] = [12, 0, 0, 0, 0x81, 0xC1, 0, 0, 1, 0, 0, 0]
        #expect(CanonEOSEvent.decode(short) == [.other(type: 0xC181, payload: [1, 0, 0, 0])])
        // Every prefix of a real answer decodes (to fewer records).
        let long = CanonEOSEvent.encode([
            .objectAdded(CanonEOSObject(handle: 1, storageID: 2, format: .exifJPEG, size: 3, parent: 4, name: "A.JPG")),
            .propertyValue(.canonEOSOwner, Array("me".utf8) + [0]),
        ])
        for n in 0...long.count { _ = CanonEOSEvent.decode(Array(long.prefix(n))) }
    }

    @Test func nikonEventsDecodeAndALyingCountIsCut() {
        let events = [PTPEvent(.objectAdded, parameters: [0x1234]), PTPEvent(.captureComplete, parameters: [0])]
        let bytes = NikonEvents.encode(events)
        #expect(bytes.count == 2 + 12)
        #expect(NikonEvents.decode(bytes) == events)
        var lying = bytes
        lying[0] = 0xFF
        #expect(NikonEvents.decode(lying) == events)
        #expect(NikonEvents.decode([1]).isEmpty)
        #expect(NikonEvents.decode([]).isEmpty)
    }

    @Test func vendorOperationsHaveNames() {
        #expect(OperationCode.canonEOSGetEvent.description == "EOS_GetEvent")
        #expect(OperationCode.nikonDeviceReady.description == "Nikon_DeviceReady")
        #expect(OperationCode(0x9999).description == "Operation 0x9999")
    }
}
