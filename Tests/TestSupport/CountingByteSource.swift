import MediaFormats
import POSIX

/// Wraps a source and counts the reads and bytes that pass through, to show how little of a file a reader
/// needs (and, over a camera link, how many round trips it costs).
public final class CountingByteSource<Base: ByteRangeSource>: ByteRangeSource {
    private struct Counts {
        var reads = 0
        var bytes: UInt64 = 0
    }

    private let base: Base
    private let counts = Locked(Counts())

    public init(_ base: Base) {
        self.base = base
    }

    public var length: UInt64 { base.length }

    /// How many `read` calls reached the wrapped source.
    public var readCount: Int { counts.withLock { $0.reads } }

    /// How many bytes the wrapped source returned in total.
    public var bytesRead: UInt64 { counts.withLock { $0.bytes } }

    /// Forgets the counts so far.
    public func reset() {
        counts.withLock { $0 = Counts() }
    }

    public func read(offset: UInt64, count: Int) throws -> [UInt8] {
        let result = try base.read(offset: offset, count: count)
        counts.withLock {
            $0.reads += 1
            $0.bytes += UInt64(result.count)
        }
        return result
    }
}

extension CountingByteSource: Sendable where Base: Sendable {}
