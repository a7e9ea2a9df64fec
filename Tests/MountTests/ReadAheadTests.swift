import Testing

@testable import Mount

/// The mount's read policy: read-ahead grows on sequential reads and stops on a seek; the cache stays
/// within its bound and serves what it holds.
@Suite struct ReadAheadTests {
    @Test func windowGrowsOnSequentialReadsAndStopsOnASeek() {
        var policy = ReadAhead()
        let size: UInt64 = 1 << 30
        let chunk = 128 << 10
        var spans: [Int] = []
        var offset: UInt64 = 0
        for _ in 0..<8 {
            let span = policy.span(offset: offset, count: chunk, size: size)
            spans.append(span.count)
            policy.served(offset: offset, count: span.count)
            offset += UInt64(span.count)
        }
        let kib = 1024
        let expected: [Int] = [256 * kib, 512 * kib, 1024 * kib, 2048 * kib, 4096 * kib, 8192 * kib, 8192 * kib, 8192 * kib]
        #expect(spans == expected, "doubles to the maximum")
        // A 1 KB read at a 100 MB offset: just its bytes, one request.
        let jump = policy.span(offset: 100 << 20, count: 1024, size: size)
        #expect(jump.offset == 100 << 20 && jump.count == 1024)
        policy.served(offset: 100 << 20, count: 1024)
        // Reading on from there is sequential again, from the first window.
        #expect(policy.span(offset: (100 << 20) + 1024, count: 4096, size: size).count == ReadAhead.initial)
    }

    /// The kernel sends a sequential reader's reads several at once; they finish in any order, and the
    /// reader is still sequential.
    @Test func readsArrivingOutOfOrderStillCountAsSequential() {
        var policy = ReadAhead()
        let size: UInt64 = 1 << 30
        let chunk = 256 << 10
        _ = policy.span(offset: 0, count: chunk, size: size)
        policy.served(offset: UInt64(chunk), count: chunk)
        policy.served(offset: 0, count: chunk)
        let next = policy.span(offset: UInt64(3 * chunk), count: chunk, size: size)
        #expect(next.count > chunk, "the window grows: \(next.count)")
    }

    /// On sequential access the next window is fetched in the background once the reader is within one
    /// window of the end of what it has; never on a seek, never past the file's end, never far ahead of a
    /// reader that stopped, and not after a failed fetch.
    @Test func backgroundFetchesFollowASequentialReaderOnly() {
        var policy = ReadAhead()
        let size: UInt64 = 64 << 20
        let kib = 1024
        #expect(policy.background(size: size) == nil, "nothing before a first read")
        let first = policy.span(offset: 0, count: 128 * kib, size: size)
        policy.fetched(offset: first.offset, count: first.count)
        policy.served(offset: 0, count: 128 * kib)
        let second = policy.background(size: size)
        #expect(second?.offset == 256 << 10 && second?.count == 512 * kib, "the next window, right after the first: \(String(describing: second))")
        // Reading on through the file (each background fetch done at once): each one starts where the
        // last ended, they grow to the maximum, and the fetched bytes stay at most two windows ahead.
        var reading = ReadAhead()
        let opening = reading.span(offset: 0, count: 128 * kib, size: size)
        reading.fetched(offset: 0, count: opening.count)
        var end = UInt64(opening.count)
        var reader: UInt64 = 0
        var counts: [Int] = []
        while reader < size {
            reading.served(offset: reader, count: 128 * kib)
            reader += UInt64(128 * kib)
            if let next = reading.background(size: size) {
                #expect(next.offset == end)
                counts.append(next.count)
                reading.fetched(offset: next.offset, count: next.count)
                end += UInt64(next.count)
            }
            #expect(reader <= end && end - reader <= 2 * UInt64(ReadAhead.maximum), "reader \(reader), fetched to \(end)")
        }
        #expect(counts.first == 512 * kib && counts.contains(ReadAhead.maximum) && counts.allSatisfy { $0 <= ReadAhead.maximum }, "\(counts)")
        #expect(end == size, "up to the file's end, not past it: \(end)")

        // A seek (a 1 KB read at a 100 MB offset): just its bytes, nothing in the background.
        var seek = ReadAhead()
        let jump = seek.span(offset: 100 << 20, count: 1024, size: 1 << 30)
        seek.fetched(offset: jump.offset, count: jump.count)
        seek.served(offset: jump.offset, count: jump.count)
        #expect(jump.count == 1024 && seek.background(size: 1 << 30) == nil)

        // A reader that stopped more than a window before the end of what it has: nothing more.
        var stopped = ReadAhead()
        let span = stopped.span(offset: 0, count: 4096, size: size)
        stopped.fetched(offset: 0, count: span.count)
        stopped.served(offset: 0, count: 4096)
        let ahead = stopped.background(size: size)!
        stopped.fetched(offset: ahead.offset, count: ahead.count)
        #expect(stopped.background(size: size) == nil, "the reader is at 4 KiB, the bytes fetched reach \(ahead.offset + UInt64(ahead.count))")

        // A failed fetch stops the background fetches until a read fetches again.
        var failed = ReadAhead()
        let start = failed.span(offset: 0, count: 4096, size: size)
        failed.fetched(offset: start.offset, count: 0)
        failed.served(offset: 0, count: 4096)
        #expect(failed.background(size: size) == nil)
    }

    @Test func spansStopAtTheFileEnd() {
        var policy = ReadAhead()
        #expect(policy.span(offset: 0, count: 4096, size: 10_000).count == 10_000)
        #expect(policy.span(offset: 20_000, count: 4096, size: 10_000).count == 0)
    }

    @Test func cacheServesWhatItHoldsAndStaysWithinItsLimit() {
        let cache = ReadCache(limit: 1000)
        cache.store(file: 1, offset: 100, bytes: Array(repeating: 7, count: 600))
        var buffer = [UInt8](repeating: 0, count: 50)
        let got = buffer.withUnsafeMutableBytes { cache.read(file: 1, offset: 680, into: $0) }
        #expect(got == 20 && buffer.prefix(20).allSatisfy { $0 == 7 }, "up to the span's end")
        #expect(buffer.withUnsafeMutableBytes { cache.read(file: 1, offset: 50, into: $0) } == nil)
        #expect(buffer.withUnsafeMutableBytes { cache.read(file: 2, offset: 200, into: $0) } == nil)
        cache.store(file: 2, offset: 0, bytes: Array(repeating: 9, count: 600))
        #expect(cache.size == 600, "the older span went to make room")
        #expect(buffer.withUnsafeMutableBytes { cache.read(file: 1, offset: 200, into: $0) } == nil)
        cache.store(file: 3, offset: 0, bytes: Array(repeating: 1, count: 2000))
        #expect(cache.size == 600, "a span larger than the whole cache is not kept")
        cache.forget(file: 2)
        #expect(cache.size == 0)
    }
}
