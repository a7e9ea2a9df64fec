import POSIX
import TestSupport
import Testing

@Suite struct ReentrantMutexTests {
    @Test func theThreadInsideMayEnterAgain() {
        let mutex = ReentrantMutex()
        let depth = mutex.withLock { mutex.withLock { mutex.withLock { 3 } } }
        #expect(depth == 3)
    }

    @Test func anotherThreadWaitsUntilTheSectionIsLeft() throws {
        let mutex = ReentrantMutex()
        let order = LockedBox<[String]>([])
        let inside = LockedCondition(false)
        let release = LockedCondition(false)
        let holder = try JoinableThread(name: "holder") {
            mutex.withLock {
                inside.change { $0 = true }
                _ = release.wait(until: .after(10)) { $0 }
                order.append("holder leaves")
            }
        }
        _ = inside.wait(until: .after(10)) { $0 }
        let waiter = try JoinableThread(name: "waiter") {
            mutex.withLock { order.append("waiter enters") }
        }
        release.change { $0 = true }
        holder.join()
        waiter.join()
        #expect(order.value == ["holder leaves", "waiter enters"])
    }
}
