import Testing

@testable import PTP

/// A GetObjectPropList answer decoded as it arrives, a packet at a time, gives what decoding it whole
/// gives, wherever the packets cut it; and hostile answers fail at once, without waiting or allocating.
@Suite struct ListedObjectDecoderTests {
    /// An answer of `objects` files with the properties a listing reads, plus ones it skips (an array,
    /// a 128-bit integer, a string it does not keep), one object's properties in two runs, and bytes
    /// after the last element.
    static func answer(objects: Int) -> (bytes: [UInt8], elements: Int) {
        var w = PTPWriter()
        w.uint32(0)
        var count: UInt32 = 0
        func element(_ handle: UInt32, _ property: UInt16, _ type: UInt16, _ value: (inout PTPWriter) -> Void) {
            w.uint32(handle)
            w.uint16(property)
            w.uint16(type)
            value(&w)
            count += 1
        }
        for i in 0..<objects {
            let handle = UInt32(0x100 + i)
            element(handle, 0xDC01, 0x0006) { $0.uint32(0x0001_0001) }  // StorageID
            element(handle, 0xDC0B, 0x0006) { $0.uint32(i % 3 == 0 ? 0 : 0x100) }  // ParentObject
            element(handle, 0xDC02, 0x0004) { $0.uint16(i % 3 == 0 ? 0x3001 : 0x3801) }  // ObjectFormat
            element(handle, 0xDC04, 0x0008) { $0.uint64(UInt64(i) * 1_000_003) }  // ObjectSize
            element(handle, 0xDC07, 0xFFFF) { $0.string("DJI_\(i)é.JPG") }  // ObjectFileName
            element(handle, 0xDC08, 0xFFFF) { $0.string("20240501T101203") }  // DateCreated
            element(handle, 0xDC99, 0x4006) { w in w.uint32Array([1, 2, 3]) }  // an array it skips
            element(handle, 0xDC9A, 0x000A) { $0.uint64(7); $0.uint64(0) }  // a uint128
            element(handle, 0xDC9B, 0xFFFF) { $0.string("") }  // an empty string it skips
        }
        // The first object again, later: merged into its record.
        element(0x100, 0xDC89, 0x0006) { $0.uint32(12_000) }  // Duration
        w.patchUInt32(count, at: 0)
        w.raw([0xDE, 0xAD, 0xBE, 0xEF, 0x01])
        return (w.bytes, Int(count))
    }

    /// Feeds `bytes` to a decoder in pieces of `piece` bytes, as a transport would.
    static func streamed(_ bytes: [UInt8], piece: Int, announced: Bool = true) throws -> [ListedObject] {
        let decoder = ListedObjectDecoder(limit: 1 << 20)
        try decoder.begin(expectedLength: announced ? UInt64(bytes.count) : nil)
        var at = 0
        while at < bytes.count {
            let end = min(bytes.count, at + piece)
            try bytes[at..<end].withUnsafeBytes { try decoder.write($0) }
            at = end
        }
        return try decoder.finish()
    }

    @Test(arguments: [1, 2, 3, 7, 8, 9, 13, 64, 1000, 1 << 20])
    func piecesOfAnySizeDecodeAsTheWhole(_ piece: Int) throws {
        let (bytes, _) = Self.answer(objects: 40)
        let whole = try ListedObject.decodeAll(bytes)
        #expect(whole.count == 40)
        #expect(whole[0].duration == 12_000 && whole[0].fileName == "DJI_0é.JPG" && whole[0].size == 0)
        #expect(whole[38].parent == 0x100 && whole[38].format == 0x3801 && whole[38].size == 38 * 1_000_003)
        #expect(whole[5].dateCreated == "20240501T101203" && whole[5].storageID == 0x0001_0001)
        #expect(try Self.streamed(bytes, piece: piece) == whole)
        #expect(try Self.streamed(bytes, piece: piece, announced: false) == whole)
    }

    @Test func anAnswerCutShortFailsAtTheEndNotBefore() throws {
        let (bytes, elements) = Self.answer(objects: 10)
        let cut = Array(bytes.prefix(bytes.count / 2))
        let decoder = ListedObjectDecoder()
        try decoder.begin(expectedLength: nil)
        try cut.withUnsafeBytes { try decoder.write($0) }
        #expect {
            try decoder.finish()
        } throws: { error in
            guard case PTPError.malformed(let malformation) = error,
                case .endedEarly(_, let count, let bytes) = malformation.defect
            else { return false }
            return count == elements && bytes == cut.count
        }
        #expect(throws: PTPError.self) { try ListedObject.decodeAll(cut) }
        #expect(throws: PTPError.self) { try ListedObject.decodeAll([1, 0]) }
    }

    @Test func aCountTheAnnouncedLengthCannotHoldIsRefusedAtOnce() throws {
        var w = PTPWriter()
        w.uint32(0xFFFF_FFFF)
        w.raw([UInt8](repeating: 0, count: 60))
        let decoder = ListedObjectDecoder()
        try decoder.begin(expectedLength: UInt64(w.bytes.count))
        try w.bytes.withUnsafeBytes { try decoder.write($0) }
        #expect(throws: PTPError.malformed(Malformation("ObjectPropList", .countExceedsRoom(count: 0xFFFF_FFFF, room: 60)))) {
            try decoder.finish()
        }
    }

    /// An array whose count runs past the answer is refused when its count arrives, not waited for: the
    /// bytes that follow are received and dropped, never kept (else up to the decoder's limit), and the
    /// transaction is not cut short (the transport would send Cancel for a sink that threw).
    /// A malformed ObjectPropList with an element that runs past the end of the answer.
    static func isElementPastEnd(_ error: any Error) -> Bool {
        guard case PTPError.malformed(let malformation) = error, malformation.structure == "ObjectPropList" else { return false }
        if case .elementPastEnd = malformation.defect { return true }
        return false
    }

    @Test func anArrayLongerThanTheAnswerIsRefusedWhenItsCountArrives() throws {
        var w = PTPWriter()
        w.uint32(2)
        w.uint32(0x100)
        w.uint16(0xDC99)
        w.uint16(0x4008)
        w.uint32(0x1000_0000)  // 2^28 elements of 8 bytes
        let head = w.bytes
        let decoder = ListedObjectDecoder()
        try decoder.begin(expectedLength: UInt64(head.count + 4096))
        try head.withUnsafeBytes { try decoder.write($0) }
        try [UInt8](repeating: 7, count: 4096).withUnsafeBytes { try decoder.write($0) }
        #expect { try decoder.finish() } throws: { Self.isElementPastEnd($0) }

        let unannounced = ListedObjectDecoder(limit: 1 << 16)
        try unannounced.begin(expectedLength: nil)
        try head.withUnsafeBytes { try unannounced.write($0) }
        #expect { try unannounced.finish() } throws: { Self.isElementPastEnd($0) }
        // More than the limit is refused from write itself (the transport then stops the transfer).
        #expect(throws: PTPError.self) { try [UInt8](repeating: 0, count: 1 << 16).withUnsafeBytes { try unannounced.write($0) } }
    }

    @Test func aTypeWhoseLengthCannotBeKnownFails() throws {
        for type: UInt16 in [0x0000, 0x000B, 0x4000, 0x400B] {
            var w = PTPWriter()
            w.uint32(1)
            w.uint32(0x100)
            w.uint16(0xDC07)
            w.uint16(type)
            w.raw([0, 0, 0, 0, 0, 0, 0, 0])
            #expect(throws: PTPError.self, "type 0x\(String(type, radix: 16))") { try ListedObject.decodeAll(w.bytes) }
            #expect(throws: PTPError.self) { try Self.streamed(w.bytes, piece: 3) }
        }
    }

    @Test func anEmptyAnswerHasNoObjects() throws {
        #expect(try ListedObject.decodeAll([0, 0, 0, 0]).isEmpty)
        #expect(try Self.streamed([0, 0, 0, 0, 9, 9], piece: 1).isEmpty)
    }
}
