import Checksums
import MediaManager
import PTP

/// Passes a download's bytes on to the file and feeds them to a hash on the way.
final class HashingSink: DataSink {
    let inner: DataSink
    let hash: any ChecksumHasher

    init(_ inner: DataSink, hash: any ChecksumHasher) {
        self.inner = inner
        self.hash = hash
    }

    func begin(expectedLength: UInt64?) throws { try inner.begin(expectedLength: expectedLength) }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        try inner.write(chunk)
        hash.update(chunk)
    }
}
