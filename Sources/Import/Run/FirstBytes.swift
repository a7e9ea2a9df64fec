import Foundation
import MediaFormats
import MediaManager
import PTP

extension FirstBytes {
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
