import Foundation

/// Wraps a source and counts the reads and bytes that pass through, to show how little of a file a reader
/// needs (and, over a camera link, how many round trips it costs).
public final class CountingByteSource<Base: ByteRangeSource>: ByteRangeSource, @unchecked Sendable {
    // Safety: `base` is only read after init; the counters are guarded by `lock`.
    private let base: Base
    private let lock = NSLock()
    private var reads = 0
    private var bytes: UInt64 = 0

    public init(_ base: Base) {
        self.base = base
    }

    public var length: UInt64 { base.length }

    /// How many `read` calls reached the wrapped source.
    public var readCount: Int { lock.withLock { reads } }

    /// How many bytes the wrapped source returned in total.
    public var bytesRead: UInt64 { lock.withLock { bytes } }

    /// Forgets the counts so far.
    public func reset() {
        lock.withLock {
            reads = 0
            bytes = 0
        }
    }

    public func read(offset: UInt64, count: Int) throws -> [UInt8] {
        let result = try base.read(offset: offset, count: count)
        lock.withLock {
            reads += 1
            bytes += UInt64(result.count)
        }
        return result
    }
}
