import Foundation
import POSIX
import PTP
@testable import PTPIP
import TestSupport
import Testing

/// The wait for a Pong is measured on the injected clock: a manual clock moved past the deadline ends it
/// with a timeout, one moved short of it does not, and no real time has to pass for either.
@Suite struct PongTimeoutClockTests {
    /// How a wait ended.
    enum Outcome: Equatable, Sendable {
        case pong
        case failed(PTPError)
        case other(String)
    }

    /// Starts `wait(after:)` on a thread of its own; the mailbox gets its outcome.
    func startWaiting(_ waiter: PongWaiter, timeout: Double) -> Mailbox<Outcome> {
        let outcome = Mailbox<Outcome>()
        let before = waiter.current
        Thread.detachNewThread {
            do {
                try waiter.wait(after: before, timeout: timeout, peer: "test peer")
                outcome.put(.pong)
            } catch let error as PTPError {
                outcome.put(.failed(error))
            } catch {
                outcome.put(.other("\(type(of: error))"))
            }
        }
        return outcome
    }

    /// A waiter with a 30 s timeout on a manual clock, once it has taken its deadline, and the clock moved
    /// on by `seconds`: the clock's reads so far, and the mailbox of the wait's outcome.
    func waitThenMove(by seconds: Double, _ clock: ManualWaitClock, _ waiter: PongWaiter) -> (reads: Int, outcome: Mailbox<Outcome>) {
        let reads = clock.readCount
        let outcome = startWaiting(waiter, timeout: 30)
        // Twice read: the deadline taken, then the first check of what is left.
        #expect(clock.waitForReads(moreThan: reads + 1))
        clock.advance(by: seconds)
        waiter.clockMoved()
        return (reads, outcome)
    }

    @Test func theClockPassingTheDeadlineEndsTheWaitWithATimeout() throws {
        let clock = ManualWaitClock()
        let waiter = PongWaiter(clock: clock)
        let (_, outcome) = waitThenMove(by: 30, clock, waiter)
        let result = try #require(outcome.take(timeout: 10))
        #expect(result == .failed(.timeout(.init(peer: "test peer", seconds: 30, awaited: .pong))))
    }

    @Test func aPongBeforeTheDeadlineOnTheClockIsNotATimeout() throws {
        let clock = ManualWaitClock()
        let waiter = PongWaiter(clock: clock)
        let (reads, outcome) = waitThenMove(by: 29.9, clock, waiter)
        // The waiter has read the moved clock (still short of the deadline) and waits on.
        #expect(clock.waitForReads(moreThan: reads + 2))
        #expect(outcome.all.isEmpty)
        waiter.received()
        #expect(outcome.take(timeout: 10) == .pong)
    }

    @Test func theEventSocketEndingEndsTheWaitAtOnce() throws {
        let waiter = PongWaiter(clock: ManualWaitClock())
        let outcome = startWaiting(waiter, timeout: 30)
        waiter.close()
        guard case .failed(.connectionClosed)? = outcome.take(timeout: 10) else {
            Issue.record("the wait did not end with the event connection")
            return
        }
    }

    @Test func theTimeoutsCarryTheClockToTheWaiters() {
        let clock = ManualWaitClock()
        let timeouts = PTPIPTimeouts(read: 3, clock: clock)
        #expect(timeouts.clock as? ManualWaitClock === clock)
        #expect(timeouts == PTPIPTimeouts(read: 3))
        #expect(PTPIPTimeouts().clock is MonotonicClock)
    }
}
