import Checksums
import Failures
import POSIX
import PTP

extension MediaSession {
    /// The checksum of `file`'s bytes as the camera gives them now, read in requests of `chunkSize` (the
    /// whole file in one where the camera cannot read part of one) and kept nowhere: the proof that a
    /// local file found at the destination is this one before the camera's is deleted.
    public func checksum(of file: MediaFile, chunkSize: Int = 8 << 20, cancellation: Cancellation? = nil) throws -> Checksum {
        let hash = PartRecord.algorithm.makeHasher()
        let sink = HashOnlySink(hash)
        if !camera.canReadRanges {
            _ = try camera.read(file, offset: 0, count: Int(clamping: file.size), into: sink)
        } else {
            var offset: UInt64 = 0
            while offset < file.size {
                if cancellation?.isCancelled == true { throw CancellationError() }
                let got = try camera.read(file, offset: offset, count: Int(min(UInt64(chunkSize), file.size - offset)), into: sink)
                guard got > 0 else { break }
                offset += UInt64(got)
            }
        }
        guard sink.count == file.size else {
            throw DownloadError.sizeMismatch(path: file.path, expected: file.size, got: sink.count)
        }
        return hash.checksum()
    }
}

/// Feeds a data phase to a hash and keeps nothing.
final class HashOnlySink: DataSink {
    let hash: any ChecksumHasher
    private(set) var count: UInt64 = 0

    init(_ hash: any ChecksumHasher) { self.hash = hash }

    func begin(expectedLength: UInt64?) throws {}

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        hash.update(chunk)
        count += UInt64(chunk.count)
    }
}
