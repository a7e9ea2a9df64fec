import Testing

@testable import MediaFormats

/// A file's kind from its first bytes, for cameras that report every file as format 0x3000.
@Suite struct MediaKindContentTests {
    static func bytes(_ text: String, at offset: Int = 0, prefix: [UInt8] = []) -> [UInt8] {
        var result = prefix + [UInt8](repeating: 0, count: max(0, offset - prefix.count))
        result += Array(text.utf8)
        return result + [UInt8](repeating: 0, count: 4)
    }

    @Test func signaturesOfTheKindsCamerasWrite() {
        #expect(MediaKind(contentStart: [0xFF, 0xD8, 0xFF, 0xE1, 0, 0]) == .jpeg)
        #expect(MediaKind(contentStart: [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 0, 0]) == .tiff)
        #expect(MediaKind(contentStart: [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0]) == .tiff)
        #expect(MediaKind(contentStart: [0x49, 0x49, 0x2A, 0x00, 16, 0, 0, 0, 0x43, 0x52, 2, 0]) == .raw)
        #expect(MediaKind(contentStart: Self.bytes("FUJIFILMCCD-RAW 0201")) == .raw)
        #expect(MediaKind(contentStart: Self.bytes("ftypheic", at: 4)) == .heic)
        #expect(MediaKind(contentStart: Self.bytes("ftypcrx ", at: 4)) == .raw)
        #expect(MediaKind(contentStart: Self.bytes("ftypqt  ", at: 4)) == .mov)
        #expect(MediaKind(contentStart: Self.bytes("ftypisom", at: 4)) == .mp4)
        #expect(MediaKind(contentStart: Self.bytes("wide", at: 4)) == .mov)
    }

    @Test func unknownOrShortContentIsNoKind() {
        #expect(MediaKind(contentStart: []) == nil)
        #expect(MediaKind(contentStart: [0xFF, 0xD8]) == nil)
        #expect(MediaKind(contentStart: Array("1\n00:00:00,000 --> 00:00:01,000".utf8)) == nil)
        #expect(MediaKind(contentStart: Self.bytes("ftyp", at: 4)) == nil, "a brand cut short")
    }
}
