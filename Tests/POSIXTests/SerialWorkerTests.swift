import POSIX
import TestSupport
import Testing

@Suite struct SerialWorkerTests {
    @Test func workRunsInTheOrderGivenAndDrainWaitsForAllOfIt() {
        let worker = SerialWorker(name: "test-worker", maxQueuedCost: 64 << 10)
        defer { worker.close() }
        let ran = Locked<[Int]>([])
        for index in 0..<2000 {
            worker.submit(cost: index % 7 * 1000) { ran.withLock { $0.append(index) } }
        }
        worker.drain()
        #expect(ran.withLock { $0 } == Array(0..<2000))
    }

    @Test func theCallerWaitsWhenItIsTheBoundAhead() {
        // Three pieces fit the bound (each counts as at least the minimum cost). Piece k does not end before
        // piece k+2 is given, so the queue is full each time: the caller is exactly three ahead once it has
        // given three. A worker without the bound lets the caller run all the way ahead.
        let aheadAllowed = 3
        let count = 40
        let worker = SerialWorker(name: "test-worker", maxQueuedCost: aheadAllowed * SerialWorker.minimumCost)
        defer { worker.close() }
        let given = LockedCondition(0)
        let done = Locked(0)
        let stuck = Locked(false)
        var mostAhead = 0
        for index in 0..<count {
            worker.submit {
                let wanted = min(count, index + aheadAllowed)
                if !given.wait(until: .after(10), for: { $0 >= wanted }) { stuck.withLock { $0 = true } }
                done.withLock { $0 += 1 }
            }
            // Before it is counted as given: no piece from index - 2 on can have ended yet.
            mostAhead = max(mostAhead, index + 1 - done.withLock { $0 })
            given.change { $0 += 1 }
        }
        worker.drain()
        #expect(stuck.withLock { $0 } == false)
        #expect(mostAhead == aheadAllowed)
        #expect(done.withLock { $0 } == count)
    }

    /// What a piece holds (a chunk of a file, 8 MiB for a video) is let go once it has run, not kept until
    /// the worker ends: a long import holds no more than the bound.
    @Test func whatAPieceHoldsIsFreedOnceItRan() {
        final class Held: Sendable {}
        let worker = SerialWorker(name: "test-worker", maxQueuedCost: 1 << 20)
        defer { worker.close() }
        weak var watched: Held?
        do {
            let held = Held()
            watched = held
            worker.submit(cost: 10) { _ = held }
        }
        worker.drain()
        #expect(watched == nil)
    }

    @Test func closeRunsWhatWasGivenThenWorkRunsOnTheCaller() {
        let worker = SerialWorker(name: "test-worker", maxQueuedCost: 1 << 20)
        let ran = Locked(0)
        for _ in 0..<100 { worker.submit { ran.withLock { $0 += 1 } } }
        worker.close()
        #expect(ran.withLock { $0 } == 100)
        // After close, a piece runs at once, on this thread.
        let here = Locked(false)
        worker.submit { here.withLock { $0 = true } }
        #expect(here.withLock { $0 })
    }
}
