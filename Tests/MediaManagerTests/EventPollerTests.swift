import Foundation
import POSIX
import PTP
import TestSupport
import Testing

@testable import MediaManager

/// The poller of a dialect without pushed events: it asks only while a lease is held, stops when the last
/// lease goes, never runs two polls at once, and a catch-up within the freshness sends nothing.
@Suite struct EventPollerTests {
    final class Counter: Sendable {
        let polls = Locked(0)
        let delivered = Mailbox<[PTPEvent]>()
    }

    func poller(_ counter: Counter, interval: TimeInterval = 0.01) -> EventPoller {
        EventPoller(
            interval: interval, keepAliveInterval: nil,
            poll: {
                let n = counter.polls.withLock { count in
                    count += 1
                    return count
                }
                return [PTPEvent(.objectAdded, parameters: [UInt32(n)])]
            },
            keepAlive: {}, deliver: { counter.delivered.put($0) })
    }

    @Test func pollsOnlyWhileALeaseIsHeld() throws {
        let counter = Counter()
        let poller = poller(counter)
        defer { poller.stop() }
        #expect(!poller.isPolling)
        #expect(counter.delivered.take(timeout: 0.05) == nil)
        #expect(counter.polls.withLock { $0 } == 0)
        poller.acquire()
        #expect(counter.delivered.take(timeout: 10) != nil)
        #expect(counter.delivered.take(timeout: 10) != nil)
        poller.release()
        #expect(!poller.isPolling)
        // Stopping joins the thread: the count can no longer move.
        poller.stop()
        let after = counter.polls.withLock { $0 }
        poller.acquire()
        #expect(counter.polls.withLock { $0 } == after)
    }

    @Test func aNewLeaseAfterTheLastWentStartsPollingAgain() throws {
        let counter = Counter()
        let poller = poller(counter)
        defer { poller.stop() }
        poller.acquire()
        #expect(counter.delivered.take(timeout: 10) != nil)
        poller.release()
        poller.acquire()
        let before = counter.polls.withLock { $0 }
        #expect(counter.delivered.take(timeout: 10) { $0.first?.parameter(0) ?? 0 > UInt32(before) } != nil)
        poller.release()
    }

    @Test func aCatchUpWithinTheFreshnessAsksNothing() throws {
        let counter = Counter()
        let poller = poller(counter, interval: 3600)
        defer { poller.stop() }
        try poller.catchUp(freshness: 3600)
        #expect(counter.polls.withLock { $0 } == 1)
        try poller.catchUp(freshness: 3600)
        #expect(counter.polls.withLock { $0 } == 1)
        try poller.catchUp(freshness: 0)
        #expect(counter.polls.withLock { $0 } == 2)
        poller.stop()
        try poller.catchUp(freshness: 0)
        #expect(counter.polls.withLock { $0 } == 2)
    }
}
