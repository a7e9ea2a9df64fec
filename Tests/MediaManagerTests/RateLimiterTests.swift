import Testing

@testable import MediaManager

/// The rate limit on a clock moved by hand: the waits it asks for are exactly the time the bytes are due.
struct RateLimiterTests {
    final class ManualTime {
        var now = 100.0
        var waits: [Double] = []
    }

    @Test func waitsUntilTheBytesAreDueAndCountsFromEachRestart() {
        let time = ManualTime()
        let limiter = RateLimiter(bytesPerSecond: 1000, now: { time.now }, wait: { seconds in
            time.waits.append(seconds)
            time.now += seconds
        })
        limiter.restart(at: 0)
        limiter.pace(500)  // due at 100.5
        #expect(time.waits == [0.5])
        time.now += 2  // a slow chunk: already past due, no wait
        limiter.pace(1000)
        #expect(time.waits == [0.5])
        // A resumed file: its first 4000 bytes were on disk already and are not paced.
        limiter.restart(at: 4000)
        limiter.pace(4250)
        #expect(time.waits == [0.5, 0.25])
    }

    @Test func theFirstPaceStartsTheCountWhenNothingDid() {
        let time = ManualTime()
        let limiter = RateLimiter(bytesPerSecond: 2000, now: { time.now }, wait: { time.waits.append($0) })
        limiter.pace(10_000)
        #expect(time.waits.isEmpty)
        limiter.pace(12_000)
        #expect(time.waits == [1.0])
    }
}
