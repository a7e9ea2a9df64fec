import TestSupport
import Testing

@testable import PTP

/// ObjectInfo with ObjectCompressedSize as 64 bits (Samsung Galaxy phones' MTP; libgphoto2's `ocs64`):
/// every later field sits 4 bytes further. Read as the standard layout, every name came out empty and every
/// parent wrong, and a whole card listed as nothing (issue 26).
@Suite(.tags(.process), .notInFastRun) struct ObjectInfoLayoutTests {
    static func photo(sequence: UInt32 = 0, size: UInt64 = 1_234_567) -> ObjectInfo {
        var info = ObjectInfo()
        info.storageID = 0x0001_0001
        info.format = .exifJPEG
        info.wideCompressedSize = size
        info.compressedSize = UInt32(clamping: size)
        info.thumbFormat = .exifJPEG
        info.thumbCompressedSize = 4096
        info.thumbPixWidth = 160
        info.thumbPixHeight = 120
        info.parentObject = 0x0000_0007
        info.sequenceNumber = sequence
        info.filename = "IMG_0001.JPG"
        info.captureDate = "20261130T120000"
        info.modificationDate = "20261130T120000"
        return info
    }

    @Test func theWideLayoutPutsTheNameFourBytesOn() {
        let bytes = Self.photo().encoded()
        #expect(bytes[ObjectInfo.standardNameOffset] == 0, "the standard layout's name count: a SequenceNumber byte")
        #expect(bytes[ObjectInfo.wideNameOffset] == 13, "12 characters and the NUL")
        var standard = Self.photo()
        standard.wideCompressedSize = nil
        #expect(bytes.count == standard.encoded().count + 4)
    }

    /// libgphoto2's test: the byte at 52 is 0 and the one at 56 is not.
    @Test func theWideLayoutIsDetectedAndEveryFieldReadInItsPlace() throws {
        let decoded = try ObjectInfo(decoding: Self.photo().encoded())
        #expect(decoded == Self.photo())
        #expect(decoded.filename == "IMG_0001.JPG" && decoded.parentObject == 7 && decoded.size == 1_234_567)
    }

    /// A non-zero SequenceNumber defeats libgphoto2's test (the byte at 52 is not 0); the standard layout
    /// then reads no valid name, and the wide one does.
    @Test(arguments: [1 as UInt32, 0x0102_0304, 0xFFFF_FFFF])
    func aSequenceNumberDoesNotHideTheLayout(_ sequence: UInt32) throws {
        let decoded = try ObjectInfo(decoding: Self.photo(sequence: sequence).encoded())
        #expect(decoded.filename == "IMG_0001.JPG", "\(sequence)")
        #expect(decoded.sequenceNumber == sequence && decoded.parentObject == 7)
    }

    /// Files of 4 GiB and more: the 64-bit field is the true size.
    @Test func aSizeOver4GiBIsKept() throws {
        let decoded = try ObjectInfo(decoding: Self.photo(size: 5 << 30).encoded())
        #expect(decoded.size == 5 << 30 && decoded.compressedSize == 0xFFFF_FFFF)
    }

    /// The standard layout is never taken for the wide one: names of any length, an empty name, and a
    /// dataset that ends after the name.
    @Test func theStandardLayoutStaysStandard() throws {
        for name in ["", "A", "IMG_0001.JPG", String(repeating: "n", count: 200)] {
            var info = Self.photo()
            info.wideCompressedSize = nil
            info.filename = name
            let decoded = try ObjectInfo(decoding: info.encoded())
            #expect(decoded == info, "\(name)")
            #expect(decoded.wideCompressedSize == nil)
            let cut = Array(info.encoded().prefix(ObjectInfo.standardNameOffset + 1 + 2 * (name.utf16.count + (name.isEmpty ? 0 : 1))))
            #expect(try ObjectInfo(decoding: cut).filename == name, "cut after the name: \(name)")
        }
    }

    /// A wide ObjectInfo cut short inside its name is malformed, not a standard one with an empty name.
    @Test func aTruncatedWideObjectInfoIsNotReadAsSomethingElse() {
        let bytes = Array(Self.photo(sequence: 5).encoded().prefix(ObjectInfo.wideNameOffset + 5))
        #expect(throws: PTPError.self) { try ObjectInfo(decoding: bytes) }
    }
}
