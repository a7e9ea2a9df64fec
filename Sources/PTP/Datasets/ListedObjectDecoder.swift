/// Decodes a GetObjectPropList answer into `ListedObject`s as its bytes arrive, a data packet at a time, so
/// that a listing's decoding overlaps its transfer (on Wi-Fi the 2.4 MB answer for 10,000 files takes
/// 0.12 s to arrive; decoded after the last byte, its 10,000 records came on top) and the answer itself
/// is never held whole (24 MB for a card of 100,000 objects).
///
/// Only the bytes of an element cut by a packet's end are kept between writes. The result and the errors
/// are those of decoding the whole answer at once (`ListedObject.decodeAll`): malformed data (a count
/// larger than the bytes, a truncated value, a type whose length cannot be known) throws from `finish`.
/// Once the data is seen to be malformed, the rest is received and dropped, not decoded nor kept: the
/// transaction ends as the device meant it to (a sink that threw would have the transport send Cancel,
/// which not every camera takes well), and the catalog then lists folder by folder. Only an answer larger
/// than `limit` throws from `begin` or `write`.
public final class ListedObjectDecoder: DataSink {
    /// The most bytes an answer may have (a device's hostile length is refused before any allocation).
    public let limit: Int
    private var pending: [UInt8] = []
    private var received = 0
    private var announced: UInt64?
    /// The count of elements the answer begins with, once its first 4 bytes arrived.
    private var count: Int?
    /// What was decoded so far: a value of its own, so that the loop over a packet's elements mutates it
    /// in place with one access check per packet, not one per element (a class's stored property is
    /// checked at each access; 1.5 million elements for a card of 100,000 objects).
    private var decoded = Decoded()
    /// Why the answer cannot be decoded, once that is known; `finish` throws it.
    private var failure: PTPError?

    private struct Decoded {
        var elementsRead = 0
        var objects: [ListedObject] = []
        /// Where each handle's record is. Devices send an object's properties together: the table is
        /// consulted only when the handle changes.
        var place: [UInt32: Int] = [:]
        var current = -1
        var elementsOfFirst = 0

        /// Decodes the elements whose bytes are all in `r`, up to `count` in all; `fits(length, offset)`
        /// says whether an element of that length at that offset of `r` stays inside the answer.
        mutating func decode(from r: inout PTPReader, count: Int, capped: Bool, fits: (Int, Int) -> Bool) throws {
            while elementsRead < count, let length = try ListedObjectDecoder.elementLength(r) {
                guard fits(length, r.offset) else {
                    throw PTPError.malformed(Malformation("ObjectPropList", .elementPastEnd(length: length, offset: r.offset)))
                }
                guard length <= r.remaining else { break }
                let handle = try r.uint32()
                let property = ObjectPropertyCode(try r.uint16())
                let type = DataTypeCode(try r.uint16())
                if current < 0 || objects[current].handle != handle {
                    if let known = place[handle] {
                        current = known
                    } else {
                        if objects.count == 1 { reserveAfterFirst(count, capped: capped) }
                        current = objects.count
                        place[handle] = current
                        objects.append(ListedObject(handle: handle))
                    }
                }
                if current == 0 { elementsOfFirst += 1 }
                try objects[current].read(property, type, from: &r)
                elementsRead += 1
            }
        }

        /// Objects usually carry the same properties: once the first is read, the count of elements says
        /// about how many objects follow (growing a big array copies it; a table grown step by step held
        /// two tables at each rehash). Without an announced length (`capped`) the count is the device's word
        /// only: the reservation stays modest.
        private mutating func reserveAfterFirst(_ count: Int, capped: Bool) {
            var expected = count / max(1, elementsOfFirst) + 1
            if capped { expected = min(expected, 1 << 16) }
            objects.reserveCapacity(expected)
            place.reserveCapacity(expected)
        }
    }

    public init(limit: Int = 512 << 20) { self.limit = limit }

    public func begin(expectedLength: UInt64?) throws {
        if let expectedLength, expectedLength > UInt64(limit) {
            throw PTPError.dataTooLarge(limit: UInt64(limit), announced: expectedLength)
        }
        announced = expectedLength
    }

    public func write(_ chunk: UnsafeRawBufferPointer) throws {
        guard received + chunk.count <= limit else {
            throw PTPError.dataTooLarge(limit: UInt64(limit), announced: UInt64(received + chunk.count))
        }
        received += chunk.count
        if failure != nil { return }
        if let count, decoded.elementsRead == count { return }  // what follows the last element is not read
        pending.append(contentsOf: chunk)
        do {
            let used = try decodeComplete()
            pending.removeFirst(used)
        } catch let error as PTPError {
            failure = error
            pending = []
            decoded = Decoded()
        }
    }

    /// The objects, in the order they first appeared; throws when the answer ended before its last element.
    public func finish() throws -> [ListedObject] {
        if let failure { throw failure }
        guard let count else {
            throw PTPError.malformed(Malformation("ObjectPropList", .truncated(field: "u32", offset: 0, total: pending.count)))
        }
        guard decoded.elementsRead == count else {
            throw PTPError.malformed(
                Malformation("ObjectPropList", .endedEarly(read: decoded.elementsRead, count: count, bytes: received)))
        }
        return decoded.objects
    }

    /// Decodes every element whose bytes are all in `pending`; returns how many bytes those took.
    private func decodeComplete() throws -> Int {
        var r = PTPReader(pending, context: "ObjectPropList")
        if count == nil {
            guard r.remaining >= 4 else { return 0 }
            let declared = Int(try r.uint32())
            // The whole answer's length, when the device announced it; else what arrived so far bounds
            // nothing yet, and the reservation below stays modest.
            if let announced {
                let room = Int(clamping: announced) - 4
                guard declared <= max(0, room) / ObjectPropList.minimumElementSize else {
                    throw PTPError.malformed(Malformation("ObjectPropList", .countExceedsRoom(count: declared, room: max(0, room))))
                }
            }
            count = declared
        }
        let count = count!
        let before = received - pending.count  // bytes of the answer ahead of `pending`
        let limits = (announced: announced, limit: limit)
        try decoded.decode(from: &r, count: count, capped: announced == nil) { length, at in
            Self.fits(length, at: before + at, announced: limits.announced, limit: limits.limit)
        }
        return decoded.elementsRead == count ? pending.count : r.offset
    }

    /// False when an element of `length` bytes from `position` would run past the announced answer: a
    /// device's array count of billions is refused at once, not waited for.
    private static func fits(_ length: Int, at position: Int, announced: UInt64?, limit: Int) -> Bool {
        guard let announced else { return position + length <= limit }
        return UInt64(position) + UInt64(length) <= announced
    }

    /// The bytes of the element at the reader's offset, or nil when not enough of it arrived to know.
    /// A type whose length cannot be known is an error at once.
    static func elementLength(_ r: PTPReader) throws -> Int? {
        let at = r.offset
        let bytes = r.bytes
        guard bytes.count - at >= 8 else { return nil }
        let type = DataTypeCode(UInt16(bytes[at + 6]) | UInt16(bytes[at + 7]) << 8)
        if type == .string {
            guard bytes.count - at >= 9 else { return nil }
            return 9 + Int(bytes[at + 8]) * 2
        }
        if type.isArray {
            guard let width = type.elementType.scalarWidth else {
                throw PTPError.malformed(Malformation("ObjectPropList", .unsupportedDataType(type.rawValue, array: true)))
            }
            guard bytes.count - at >= 12 else { return nil }
            var elements = 0
            for i in 0..<4 { elements |= Int(bytes[at + 8 + i]) << (8 * i) }
            return 12 + elements * width
        }
        guard let width = type.scalarWidth else {
            throw PTPError.malformed(Malformation("ObjectPropList", .unsupportedDataType(type.rawValue, array: false)))
        }
        return 8 + width
    }
}
