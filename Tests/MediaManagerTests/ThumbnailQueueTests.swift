import Foundation
import POSIX
import TestSupport
import Testing
@testable import MediaManager

@Suite struct ThumbnailQueueTests {
    /// A fetch that blocks until the test opens the gate, so ordering can be arranged first.
    final class Gate: Sendable {
        let semaphore = Mailbox<Void>()
        let entered = Mailbox<Void>()
        let order = Locked<[String]>([])
        func fetch(_ key: String) throws -> [UInt8] {
            if key == "first" {
                entered.put(())
                _ = semaphore.take(timeout: 10)
            }
            order.withLock { $0.append(key) }
            if key.hasPrefix("bad") { throw CancellationError() }
            return Array(key.utf8)
        }
        var seen: [String] { order.withLock { $0 } }
    }

    @Test func runsInOrderAndHonoursMovesToFrontAndEnd() throws {
        let gate = Gate()
        let queue = ThumbnailQueue<String>(fetch: gate.fetch)
        let results = LockedBox<[String: Int]>([:])
        let record: ThumbnailQueue<String>.Completion = { key, result in
            results.mutate { $0[key] = (try? result.get())?.count ?? -1 }
        }
        queue.enqueue("first", completion: record)
        #expect(gate.entered.take(timeout: 10) != nil)
        for key in ["a", "b", "c", "d"] { queue.enqueue(key, completion: record) }
        #expect(queue.pending == ["a", "b", "c", "d"])
        queue.moveToFront("c")
        queue.moveToEnd("a")
        gate.semaphore.put(())
        #expect(queue.waitUntilIdle(timeout: 10))
        #expect(gate.seen == ["first", "c", "b", "d", "a"])
        #expect(results.value == ["first": 5, "a": 1, "b": 1, "c": 1, "d": 1])
    }

    @Test func suspendsAfterAFailureWhenAskedAndResumes() throws {
        let gate = Gate()
        let queue = ThumbnailQueue<String>(suspendAfterFailure: true, fetch: gate.fetch)
        for key in ["bad1", "x", "y"] { queue.enqueue(key) { _, _ in } }
        #expect(queue.waitUntilIdle(timeout: 10))
        #expect(queue.isSuspended)
        #expect(gate.seen == ["bad1"])
        #expect(queue.pending == ["x", "y"])
        queue.resume()
        #expect(queue.waitUntilIdle(timeout: 10))
        #expect(gate.seen == ["bad1", "x", "y"])
    }

    /// Issue 16.4: a key already pending keeps its place, is fetched once, and every completion hears of it.
    @Test func aKeyAlreadyPendingKeepsItsPlaceAndGetsBothCompletions() throws {
        let gate = Gate()
        let queue = ThumbnailQueue<String>(fetch: gate.fetch)
        let heard = LockedBox<[String]>([])
        queue.suspend()
        queue.enqueue("a") { key, _ in heard.mutate { $0.append("\(key)1") } }
        queue.enqueue("b") { key, _ in heard.mutate { $0.append("\(key)1") } }
        queue.enqueue("a") { key, _ in heard.mutate { $0.append("\(key)2") } }
        #expect(queue.pending == ["a", "b"])
        queue.resume()
        #expect(queue.waitUntilIdle(timeout: 10))
        #expect(gate.seen == ["a", "b"], "the camera is asked once per key")
        #expect(heard.value == ["a1", "a2", "b1"])
    }

    /// Cancelling a merged task completes each of its completions.
    @Test func cancellingAMergedTaskCompletesEveryCompletion() throws {
        let queue = ThumbnailQueue<String>(fetch: Gate().fetch)
        let cancelled = LockedBox<Int>(0)
        queue.suspend()
        for _ in 0..<3 {
            queue.enqueue("p") { _, result in
                if case .failure(let e) = result, e is CancellationError { cancelled.mutate { $0 += 1 } }
            }
        }
        queue.cancelAll()
        #expect(cancelled.value == 3)
    }

    @Test func cancelAllCompletesPendingTasksWithCancellation() throws {
        let gate = Gate()
        let queue = ThumbnailQueue<String>(fetch: gate.fetch)
        let cancelled = LockedBox<[String]>([])
        queue.suspend()
        for key in ["p", "q"] {
            queue.enqueue(key) { key, result in
                if case .failure(let e) = result, e is CancellationError { cancelled.mutate { $0.append(key) } }
            }
        }
        queue.cancelAll()
        #expect(cancelled.value == ["p", "q"])
        #expect(queue.pending.isEmpty)
    }
}

