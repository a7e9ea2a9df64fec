import POSIX

/// The bytes read from the camera, kept in memory (never on disk) up to `limit` bytes across every open
/// file: spans of files by object handle, the least recently used let go first. A read served here asks
/// the camera nothing.
final class ReadCache: Sendable {
    /// The mount's default: 64 MiB, eight of the largest read-ahead windows.
    static let standardLimit = 64 << 20

    let limit: Int
    private let state = Locked(State())

    private struct Span {
        var file: UInt32
        var offset: UInt64
        var bytes: [UInt8]
        var used: UInt64
        var end: UInt64 { offset + UInt64(bytes.count) }
    }

    private struct State {
        var spans: [Span] = []
        var total = 0
        var clock: UInt64 = 0
    }

    init(limit: Int = ReadCache.standardLimit) {
        self.limit = limit
    }

    /// Bytes held now.
    var size: Int { state.withLock { $0.total } }

    /// Copies the bytes of `file` from `offset` into `buffer` when one span holds the start of them;
    /// returns how many (up to the span's end or the buffer's), nil when none holds `offset`.
    func read(file: UInt32, offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        state.withLock { state in
            guard let index = state.spans.lastIndex(where: { $0.file == file && $0.offset <= offset && offset < $0.end })
            else { return nil }
            state.clock += 1
            state.spans[index].used = state.clock
            let span = state.spans[index]
            let start = Int(offset - span.offset)
            let count = min(buffer.count, span.bytes.count - start)
            span.bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + start, byteCount: count)
            }
            return count
        }
    }

    /// Keeps `bytes` of `file` from `offset`, letting the least recently used spans go to stay in `limit`
    /// (a span larger than the limit is not kept).
    func store(file: UInt32, offset: UInt64, bytes: [UInt8]) {
        guard !bytes.isEmpty, bytes.count <= limit else { return }
        state.withLock { state in
            while state.total + bytes.count > limit, let oldest = state.spans.indices.min(by: { state.spans[$0].used < state.spans[$1].used }) {
                state.total -= state.spans[oldest].bytes.count
                state.spans.remove(at: oldest)
            }
            state.clock += 1
            state.spans.append(Span(file: file, offset: offset, bytes: bytes, used: state.clock))
            state.total += bytes.count
        }
    }

    /// Lets every span of `file` go (it was deleted, or changed on the camera).
    func forget(file: UInt32) {
        state.withLock { state in
            state.spans.removeAll { span in
                guard span.file == file else { return false }
                state.total -= span.bytes.count
                return true
            }
        }
    }
}
