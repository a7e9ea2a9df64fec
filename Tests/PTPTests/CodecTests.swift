import Foundation
import TestSupport
import Testing
@testable import PTP

@Suite struct CodecTests {
    @Test func stringsRoundTrip() throws {
        for text in ["", "DJI_0001.JPG", "Grüße 📷 файл", String(repeating: "x", count: 253)] {
            var w = PTPWriter()
            w.string(text)
            var r = PTPReader(w.bytes)
            #expect(try r.string() == text)
            #expect(r.isAtEnd)
        }
    }

    @Test func longStringsAreCutAtThePTPLimitWithoutSplittingSurrogates() throws {
        var w = PTPWriter()
        w.string(String(repeating: "a", count: 253) + "📷📷")
        var r = PTPReader(w.bytes)
        let decoded = try r.string()
        #expect(decoded.utf16.count <= 254)
        #expect(decoded.hasPrefix(String(repeating: "a", count: 253)))
    }

    @Test func stringWithoutTerminatorIsAnError() {
        var r = PTPReader([2, 0x41, 0, 0x42, 0])
        #expect(throws: PTPError.self) { try r.string() }
    }

    @Test func unpairedSurrogateBecomesTheReplacementCharacter() throws {
        var r = PTPReader([4, 0x41, 0, 0x00, 0xD8, 0x42, 0, 0, 0])
        #expect(try r.string() == "A\u{FFFD}B")
        #expect(r.isAtEnd)
    }

    @Test func arrayCountBeyondTheBufferIsAnErrorNotAnAllocation() {
        var r = PTPReader([0xFF, 0xFF, 0xFF, 0xFF, 1, 0])
        #expect(throws: PTPError.self) { try r.uint16Array() }
    }

    @Test func deviceInfoRoundTrips() throws {
        var info = DeviceInfo()
        info.operationsSupported = [.getDeviceInfo, .getObjectPropList]
        info.manufacturer = "mediashell"
        info.model = "Virtual Camera"
        info.serialNumber = "42"
        #expect(try DeviceInfo(decoding: info.encoded()) == info)
    }

    @Test func objectInfoRoundTrips() throws {
        var info = ObjectInfo()
        info.storageID = 0x0001_0001
        info.format = .exifJPEG
        info.compressedSize = 0xFFFF_FFFF
        info.filename = "DJI 0001.JPG"
        info.captureDate = "20261130T120000"
        #expect(try ObjectInfo(decoding: info.encoded()) == info)
    }

    @Test func objectPropListRoundTrips() throws {
        let list = ObjectPropList([
            .init(handle: 1, property: .objectSize, value: .uint64(5 << 30)),
            .init(handle: 1, property: .objectFileName, value: .string("big.mp4")),
            .init(handle: 2, property: .persistentUniqueObjectIdentifier, value: .uint128(low: 7, high: 9)),
            .init(handle: 2, property: .width, value: .array(element: .uint16, [.uint16(1), .uint16(2)])),
        ])
        let decoded = try ObjectPropList(decoding: list.encoded())
        #expect(decoded == list)
        #expect(decoded.byObject().map(\.handle) == [1, 2])
    }

    @Test func propListGroupsAnObjectWhoseElementsComeApart() {
        // Devices normally send an object's properties together; one that interleaves them still gets each
        // object once, in the order objects first appear, with every property (the later value wins).
        let list = ObjectPropList([
            .init(handle: 7, property: .objectFileName, value: .string("A.JPG")),
            .init(handle: 9, property: .objectFileName, value: .string("B.JPG")),
            .init(handle: 7, property: .objectSize, value: .uint64(10)),
            .init(handle: 9, property: .objectSize, value: .uint64(20)),
            .init(handle: 9, property: .objectSize, value: .uint64(21)),
        ])
        let objects = list.byObject()
        #expect(objects.map(\.handle) == [7, 9])
        #expect(objects[0].properties == [.objectFileName: .string("A.JPG"), .objectSize: .uint64(10)])
        #expect(objects[1].properties == [.objectFileName: .string("B.JPG"), .objectSize: .uint64(21)])
    }

    @Test func asciiAndNonASCIINamesDecodeAlike() throws {
        for text in ["DJI_0001.JPG", "\u{7F}", "caf\u{E9}.jpg", "\u{80}x"] {
            var w = PTPWriter()
            w.string(text)
            var r = PTPReader(w.bytes)
            #expect(try r.string() == text)
        }
    }

    @Test func propListCountThatCannotFitIsAnError() {
        #expect(throws: PTPError.self) { try ObjectPropList(decoding: [0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0]) }
    }

    @Test func unknownDataTypeIsAnError() {
        var w = PTPWriter()
        w.uint32(1)
        w.uint32(1)
        w.uint16(0xDC04)
        w.uint16(0x1234)
        w.uint64(0)
        #expect(throws: PTPError.self) { try ObjectPropList(decoding: w.bytes) }
    }

    /// Every prefix of a valid dataset, and garbage, must decode to a value or an error: never a trap.
    @Test func truncatedAndGarbageDatasetsNeverTrap() {
        var info = DeviceInfo()
        info.operationsSupported = VirtualOps.all
        info.manufacturer = "m"
        let datasets: [[UInt8]] = [
            info.encoded(), ObjectInfo().encoded(), StorageInfo().encoded(),
            ObjectPropList([.init(handle: 1, property: .objectFileName, value: .string("abc"))]).encoded(),
        ]
        for bytes in datasets {
            for cut in 0..<bytes.count {
                let prefix = Array(bytes[0..<cut])
                _ = try? DeviceInfo(decoding: prefix)
                _ = try? ObjectInfo(decoding: prefix)
                _ = try? StorageInfo(decoding: prefix)
                _ = try? ObjectPropList(decoding: prefix)
            }
        }
        // A crash here is the failure; the seed is printed first so the run can be repeated.
        var generator = SeededRandom(test: "PTP dataset garbage")
        print("dataset garbage: \(generator)")
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? DeviceInfo(decoding: bytes)
            _ = try? ObjectInfo(decoding: bytes)
            _ = try? StorageInfo(decoding: bytes)
            _ = try? ObjectPropList(decoding: bytes)
        }
    }

    @Test func truncatedDeviceInfoSaysWhatAndWhere() {
        let bytes = Array(DeviceInfo().encoded().prefix(5))
        do {
            _ = try DeviceInfo(decoding: bytes)
            Issue.record("decoded a truncated DeviceInfo")
        } catch let error as PTPError {
            #expect(error == .malformed(Malformation("DeviceInfo", .truncated(field: "u32", offset: 2, total: 5))))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func datesParseAndFormat() throws {
        let utc = TimeZone(identifier: "UTC")!
        let date = try #require(PTPDateTime.parse("20261130T123456", assumedZone: utc))
        #expect(PTPDateTime.format(date, zone: utc) == "20261130T123456")
        #expect(PTPDateTime.parse("20261130T123456Z") == date)
        #expect(PTPDateTime.parse("20261130T143456+0200") == date)
        #expect(PTPDateTime.parse("20261130T123456.5", assumedZone: utc) == date.addingTimeInterval(0.5))
        #expect(PTPDateTime.parse("") == nil)
        #expect(PTPDateTime.parse("2026-11-30 12:34") == nil)
        #expect(PTPDateTime.parse("20261399T999999") == nil)
    }
}

enum VirtualOps {
    static let all: [OperationCode] = (0x1001...0x101C).map { OperationCode(UInt16($0)) }
}
