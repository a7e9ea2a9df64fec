import POSIX
import TestSupport
import Testing

@Suite struct LockedConditionTests {
    @Test func aWaiterWakesOnTheChangeItWaitsFor() throws {
        let state = LockedCondition(0)
        let started = LockedCondition(false)
        let other = try JoinableThread(name: "changer") {
            // Once the waiter is known to wait, two changes: only the second makes it ready.
            _ = started.wait(until: .after(10)) { $0 }
            state.change { $0 = 1 }
            state.change { $0 = 2 }
        }
        started.change { $0 = true }
        let seen = state.wait(until: .after(10), for: { $0 == 2 }, then: { value -> Int in
            value += 10
            return value
        })
        other.join()
        #expect(seen == 12)
        #expect(state.withLock { $0 } == 12)
    }

    @Test func aDeadlineEndsTheWaitWithoutRunningTheBody() {
        let state = LockedCondition(0)
        let ran = LockedBox(false)
        let result: Void? = state.wait(until: .after(0.05), for: { $0 == 1 }, then: { _ in ran.set(true) })
        #expect(result == nil)
        #expect(ran.value == false)
        #expect(state.wait(until: .now, for: { $0 == 1 }) == false)
    }

    @Test func aReadyValueDoesNotWaitEvenPastItsDeadline() {
        let state = LockedCondition("ready")
        #expect(state.wait(until: Deadline(monotonicSeconds: 0), for: { $0 == "ready" }))
    }

    @Test func withLockChangesWithoutWaking() {
        let state = LockedCondition([1])
        state.withLock { $0.append(2) }
        #expect(state.wait(until: .now, for: { $0 == [1, 2] }))
    }
}
