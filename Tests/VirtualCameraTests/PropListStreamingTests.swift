import Foundation
import PTP
import Testing
@testable import VirtualCamera

/// GetObjectPropList is encoded as it is sent (`PropListSource`): its bytes, whatever the sizes of the
/// reads that take them, must be those of the list built whole, as the camera built it before.
@Suite struct PropListStreamingTests {
    /// Files and folders on three stores: names past PTP's 254 units (one cut inside a surrogate pair),
    /// non-ASCII and empty-looking ones, videos with facts, several dates.
    static func card() throws -> Card {
        let card = Card(inMemoryLabel: "STREAM", capacity: 1 << 30)
        let day = Date(timeIntervalSince1970: 1_700_000_000)
        let long = String(repeating: "n", count: 300) + ".JPG"
        let cutPair = String(repeating: "p", count: 253) + "😀.JPG"  // the emoji's pair straddles unit 254
        for (i, name) in ["A.JPG", "B.JPG", "C.JPG", "D.JPG", "É-été.JPG", long, cutPair, "E.SRT"].enumerated() {
            card.add(name: name, in: "DCIM/100MEDIA", content: .bytes(pattern(100 + i, seed: i)), modified: day + Double(i / 3))
        }
        if let movie = DemoMedia.file("clip.mov") {
            card.add(name: "CLIP.MOV", in: "DCIM/100MEDIA", content: .resource(path: movie), modified: day)
        }
        if let mp4 = DemoMedia.file("landscape_faststart.mp4") {
            card.add(name: "LAND.MP4", in: "DCIM/101MEDIA", content: .resource(path: mp4), modified: day + 60)
        }
        card.add(name: "NOTES.TXT", in: "", content: .bytes(Array("hello".utf8)), modified: day)
        for store in 2...3 {
            let id = card.addStorage(description: "Card \(store)", volumeLabel: "S\(store)")
            for i in 0..<5 {
                card.add(name: "S\(store)_\(i).JPG", in: "DCIM/100MEDIA", content: .generated(length: 4096), modified: day, storage: id)
            }
        }
        return card
    }

    /// The list as it was built before streaming: every element into one buffer, the count patched at
    /// the front, each name with the stand-in patched wherever it occurs in the whole.
    static func whole(_ session: ResponderSession, _ handles: [UInt32], properties: [ObjectPropertyCode], format: UInt32) -> [UInt8] {
        var elements: [ObjectPropList.Element] = []
        var names: [String] = []
        for h in handles {
            guard let object = session.card.object(h), session.quirkState.isKnown(object) else { continue }
            let shownFormat = session.presentation.format(of: object)
            if format != 0 && UInt32(shownFormat.rawValue) != format { continue }
            let name = session.presentation.name(of: object)
            if name != object.name { names.append(name) }
            let facts = session.videos.facts(for: object)
            for code in properties {
                let value: PTPValue?
                switch code {
                case .objectFileName, .name: value = session.presentation.isTruncated(object) ? nil : .string(name)
                case .objectFormat: value = .uint16(shownFormat.rawValue)
                case _ where ObjectProperties.videoOnly.contains(code):
                    let zero = session.quirks.contains(.zeroDimensions) && (code == .width || code == .height)
                    value = facts.flatMap { ObjectProperties.value(code, of: $0) }.map { zero ? .uint32(0) : $0 }
                default: value = ObjectProperties.value(code, of: object, card: session.card)
                }
                if let value { elements.append(.init(handle: h, property: code, value: value)) }
            }
        }
        var bytes = ObjectPropList(elements).encoded()
        for name in Set(names) { bytes = ObjectPresentation.withUnpairedSurrogate(bytes, name: name) }
        return bytes
    }

    /// Drains `source` in reads of `chunk` bytes (the last may be shorter), checking its length.
    static func drain(_ source: DataSource, chunk: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while UInt64(out.count) < source.length {
            let want = min(chunk, Int(source.length) - out.count)
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want])) }
            #expect(n > 0)
            if n == 0 { break }
            out += buffer[0..<n]
        }
        var extra = [UInt8](repeating: 0, count: 16)
        #expect(try extra.withUnsafeMutableBytes { try source.read(into: $0) } == 0)
        return out
    }

    @Test(arguments: [
        Quirks([]), [.invalidUTF16], [.duplicateNames], [.truncatedObjectInfo], [.genericFormat], [.zeroDimensions],
        [.invalidUTF16, .duplicateNames, .truncatedObjectInfo, .genericFormat, .zeroDimensions],
    ])
    func streamedListIsTheWholeOneByteForByte(quirks: Quirks) throws {
        let card = try Self.card()
        let camera = VirtualCamera(card: card, quirks: quirks)
        let (_, responder) = InMemoryTransport.makePair(chunkSize: 64 << 10, timeout: 2)
        let session = ResponderSession(camera: camera, transport: responder, thumbnails: ThumbnailCache(card: card))
        let everything = card.descendants(of: 0)
        let media = try #require(card.handle(forPath: "DCIM/100MEDIA"))
        let cases: [([UInt32], [ObjectPropertyCode], UInt32)] = [
            (everything, ObjectProperties.supported, 0),
            (card.children(of: media) ?? [], ObjectProperties.supported, 0),
            (everything, [.objectFileName], 0),
            (everything, [.width, .duration], 0),
            (everything, ObjectProperties.supported, UInt32(ObjectFormatCode.exifJPEG.rawValue)),
            ([], ObjectProperties.supported, 0),
        ]
        for (handles, properties, format) in cases {
            let expected = Self.whole(session, handles, properties: properties, format: format)
            for chunk in [1, 7, 4096, PropListSource.refillSize + 3, 1 << 20] {
                let source = session.propListSource(of: handles, properties: properties, format: format)
                #expect(source.length == UInt64(expected.count))
                let streamed = try Self.drain(source, chunk: chunk)
                #expect(streamed == expected, "\(quirks.description), \(properties.count) properties, format \(format), reads of \(chunk)")
            }
        }
        if quirks.contains(.invalidUTF16) {
            let lone = Self.whole(session, everything, properties: [.objectFileName], format: 0)
            #expect(lone.indices.dropLast().contains { lone[$0] == 0x00 && lone[$0 + 1] == 0xD8 })
        }
    }

    /// Enough rows for several refills, through a whole session: the initiator gets the list whole.
    @Test func aLongListArrivesWholeThroughASession() throws {
        let card = Card(inMemoryLabel: "MANY", capacity: 1 << 30)
        for i in 0..<5000 {
            card.add(name: String(format: "DJI_%06d.JPG", i), in: "DCIM/100MEDIA", content: .generated(length: 10), modified: Date(timeIntervalSince1970: Double(i / 100)))
        }
        let camera = VirtualCamera(card: card)
        let connection = RawConnection(camera)
        defer { connection.close() }
        try connection.open()
        let (code, bytes) = try connection.run(.getObjectPropList, [0xFFFF_FFFF, 0, 0xFFFF_FFFF, 0, 0xFFFF_FFFF])
        #expect(code == .ok)
        #expect(bytes.count > 2 * PropListSource.refillSize)
        let list = try ObjectPropList(decoding: bytes)
        #expect(Set(list.elements.map(\.handle)).count == 5002)  // two folders and the files
        let (_, responder) = InMemoryTransport.makePair(chunkSize: 64 << 10, timeout: 2)
        let session = ResponderSession(camera: camera, transport: responder, thumbnails: ThumbnailCache(card: card))
        #expect(bytes == Self.whole(session, card.descendants(of: 0), properties: ObjectProperties.supported, format: 0))
    }
}
