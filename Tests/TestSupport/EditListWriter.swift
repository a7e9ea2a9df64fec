import Foundation

/// A small box writer for the test corpus: replaces the edit list of the first track of an MP4 whose
/// movie box is at the end (so no chunk offset moves) and sets the movie header's duration, to make the
/// edit lists ffmpeg does not write (two segments, an edit that ends exactly at a sample, slow motion).
public enum EditListWriter {
    public struct Entry: Sendable {
        public var duration: UInt32  // movie timescale
        public var mediaTime: Int32  // media timescale, -1 for an empty edit
        public var rate: UInt32 = 0x0001_0000  // 16.16: 1.0 plays at normal speed

        public init(duration: UInt32, mediaTime: Int32, rate: UInt32 = 0x0001_0000) {
            self.duration = duration
            self.mediaTime = mediaTime
            self.rate = rate
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func rewrite(_ path: String, movieDuration: UInt32, entries: [Entry]) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard let moov = find("moov", in: bytes, from: 0, to: bytes.count),
            let trak = find("trak", in: bytes, from: moov + 8, to: moov + size(bytes, moov)),
            let edts = find("edts", in: bytes, from: trak + 8, to: trak + size(bytes, trak)),
            let elst = find("elst", in: bytes, from: edts + 8, to: edts + size(bytes, edts)),
            let mvhd = find("mvhd", in: bytes, from: moov + 8, to: moov + size(bytes, moov)),
            bytes[mvhd + 8] == 0
        else { throw Failure(description: "\(path): no moov/trak/edts/elst with a version 0 mvhd") }
        guard moov + size(bytes, moov) == bytes.count else { throw Failure(description: "\(path): moov is not last") }

        var box: [UInt8] = []
        append(UInt32(16 + 12 * entries.count), to: &box)
        box += Array("elst".utf8)
        append(0, to: &box)  // version 0, no flags
        append(UInt32(entries.count), to: &box)
        for entry in entries {
            append(entry.duration, to: &box)
            append(UInt32(bitPattern: entry.mediaTime), to: &box)
            append(entry.rate, to: &box)
        }
        let delta = box.count - size(bytes, elst)
        for container in [moov, trak, edts] { put(UInt32(size(bytes, container) + delta), at: container, in: &bytes) }
        put(movieDuration, at: mvhd + 8 + 16, in: &bytes)  // after version/flags, creation, modification, timescale
        bytes.replaceSubrange(elst..<elst + size(bytes, elst), with: box)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// The offset of the first box of `type` between `start` and `end`.
    private static func find(_ type: String, in bytes: [UInt8], from start: Int, to end: Int) -> Int? {
        var offset = start
        while offset + 8 <= end {
            let length = size(bytes, offset)
            if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == type { return offset }
            guard length >= 8 else { return nil }
            offset += length
        }
        return nil
    }

    private static func size(_ bytes: [UInt8], _ offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func put(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        var encoded: [UInt8] = []
        append(value, to: &encoded)
        bytes.replaceSubrange(offset..<offset + 4, with: encoded)
    }
}
