import Foundation
import POSIX
import TestSupport
import Testing

/// `usePreciseSleeps`: the thread's timer slack becomes 1 ns (Linux's default is 50,000), and threads it
/// starts afterwards inherit it, while other threads keep theirs.
@Suite struct PreciseSleepTests {
    /// Runs `body` on a thread of its own and returns what it returned (waiting at most 10 s).
    static func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) throws -> T {
        let result = LockedBox<T?>(nil)
        let done = Mailbox<Void>()
        Thread {
            result.set(body())
            done.put(())
        }.start()
        #expect(done.take(timeout: 10) != nil)
        return try #require(result.value)
    }

    @Test func theThreadAndTheThreadsItStartsSleepPrecisely() throws {
        let slacks = try Self.onNewThread { () -> [Int] in
            let before = timerSlackNanoseconds()
            usePreciseSleeps()
            let after = timerSlackNanoseconds()
            let child = (try? Self.onNewThread { timerSlackNanoseconds() }) ?? -1
            return [before, after, child]
        }
        #expect(slacks[0] > 1, "a new thread starts with the default slack (\(slacks[0]) ns)")
        #expect(slacks[1] == 1)
        #expect(slacks[2] == 1)
        // A thread started elsewhere is not affected.
        #expect(try Self.onNewThread { timerSlackNanoseconds() } > 1)
    }
}
