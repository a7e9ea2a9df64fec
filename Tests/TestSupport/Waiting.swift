import Foundation
import POSIX

/// A thread-safe FIFO a test waits on, never longer than a timeout: how a test hears of what a server,
/// a handler or an event thread did.
public final class Mailbox<T: Sendable>: @unchecked Sendable {
    // Safe because `items` is read and written only with `condition` held.
    private let condition = NSCondition()
    private var items: [T] = []

    public init() {}

    public func put(_ item: T) {
        condition.withLock {
            items.append(item)
            condition.broadcast()
        }
    }

    /// The first item matching `predicate`, removed; nil after `timeout` seconds.
    public func take(timeout: Double = 10, where predicate: (T) -> Bool = { _ in true }) -> T? {
        let deadline = Deadline.after(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let index = items.firstIndex(where: predicate) { return items.remove(at: index) }
            if deadline.hasPassed { return nil }
            // NSCondition waits on the wall clock; the bound itself is the monotonic deadline above.
            _ = condition.wait(until: Date(timeIntervalSinceNow: deadline.remaining))
        }
    }

    public var all: [T] { condition.withLock { items } }
}

/// Waits until `process` has ended, at most `timeout` seconds; returns whether it did. Woken by the process's
/// termination (its `terminationHandler`, which this sets), not by polling.
public func waitForExit(_ process: Process, timeout: Double) -> Bool {
    let ended = Mailbox<Int32>()
    process.terminationHandler = { ended.put($0.terminationStatus) }
    if !process.isRunning { return true }  // it ended before the handler was in place
    return ended.take(timeout: timeout) != nil || !process.isRunning
}

/// Waits until `condition` holds, at most `timeout` seconds; returns whether it did. Only for what no event
/// announces: a joined thread leaving /proc/self/task, a child's descriptors closing (/proc), a file another
/// process is writing growing past a size, a VM's card showing a file QEMU wrote, a catalog catching up when
/// asked. It polls each millisecond; an event a test can wait on (a handler filling a `Mailbox`, a process's
/// end: `waitForExit`) is waited on instead.
public func eventually(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Deadline.after(timeout)
    while !condition() {
        if deadline.hasPassed { return false }
        usleep(1000)
    }
    return true
}
