/// Serves small reads (box headers, JPEG segment markers) from one larger read of the source, so walking a
/// file's structure costs a few reads rather than one per field; over a camera link each read is a round trip.
struct ReadAheadWindow<Source: ByteRangeSource> {
    let source: Source
    /// How much to fetch when a read misses the window.
    let chunkSize: Int
    private var windowStart: UInt64 = 0
    private var window: [UInt8] = []

    init(_ source: Source, chunkSize: Int) {
        self.source = source
        self.chunkSize = chunkSize
    }

    /// Exactly `count` bytes at `offset`, or a `.truncated` error naming `what`. Reads larger than a chunk
    /// go straight to the source and are not kept.
    mutating func bytes(at offset: UInt64, count: Int, what: String) throws -> [UInt8] {
        guard count > 0 else { return [] }
        let (end, overflow) = offset.addingReportingOverflow(UInt64(count))
        guard !overflow, end <= source.length else { throw MediaFormatError.truncated(what, offset: offset) }
        if offset >= windowStart, end <= windowStart + UInt64(window.count) {
            let start = Int(offset - windowStart)
            return Array(window[start..<start + count])
        }
        if count > chunkSize {
            return try source.readFully(offset: offset, count: count, what: what)
        }
        let fetch = Int(min(UInt64(chunkSize), source.length - offset))
        var fetched = try source.read(offset: offset, count: fetch)
        if fetched.count > fetch { fetched.removeLast(fetched.count - fetch) }
        guard fetched.count >= count else { throw MediaFormatError.truncated(what, offset: offset) }
        windowStart = offset
        window = fetched
        return Array(window[0..<count])
    }
}
