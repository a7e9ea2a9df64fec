import Foundation
import MediaFormats
import MediaManager
import PTP

/// The first bytes of a file to import, read before the file has its place: the date that places it comes
/// from them (a JPEG's EXIF), and the download writes them as they are (`DownloadJob.Options.firstBytes`),
/// so they cross the link once. One request, sized as the download's first request would be: a photo that
/// fits it comes whole.
struct FirstBytes {
    let bytes: [UInt8]

    static func read(_ file: MediaFile, camera: Camera, chunkSize: Int, sizing: ChunkSizing?) throws -> FirstBytes {
        let chunk = sizing.map { min($0.nextSize, chunkSize) } ?? chunkSize
        let want = Int(min(UInt64(max(chunk, 1)), file.size))
        guard want > 0 else { return FirstBytes(bytes: []) }
        let sink = BufferSink(limit: want)
        if let sizing {
            _ = try sizing.measure { try camera.read(file, offset: 0, count: want, into: sink) }
        } else {
            _ = try camera.read(file, offset: 0, count: want, into: sink)
        }
        return FirstBytes(bytes: sink.bytes)
    }

    /// The capture time these bytes give (reading further from `camera` only for a header longer than
    /// them), else the listed date.
    func captureTime(of file: MediaFile, camera: any ByteRangeSource) -> Date? {
        CaptureTime.resolve(file) { PrefixedByteSource(prefix: bytes, rest: camera) }
    }
}

/// A file whose first bytes are in memory: a read within them costs no request, any other goes to `rest`.
struct PrefixedByteSource: ByteRangeSource {
    let prefix: [UInt8]
    let rest: any ByteRangeSource

    var length: UInt64 { rest.length }

    func read(offset: UInt64, count: Int) throws -> [UInt8] {
        guard count > 0, offset < length else { return [] }
        let end = offset + min(UInt64(count), length - offset)
        if end <= UInt64(prefix.count) { return Array(prefix[Int(offset)..<Int(end)]) }
        return try rest.read(offset: offset, count: count)
    }
}
