import Foundation
import POSIX

/// A thread-safe FIFO a test waits on, never longer than a timeout: how a test hears of what a server,
/// a handler or an event thread did.
public final class Mailbox<T: Sendable>: Sendable {
    private let items = LockedCondition<[T]>([])

    public init() {}

    public func put(_ item: T) {
        items.change { $0.append(item) }
    }

    /// The first item matching `predicate`, removed; nil after `timeout` seconds (on the monotonic clock).
    public func take(timeout: Double = 10, where predicate: (T) -> Bool = { _ in true }) -> T? {
        items.wait(until: .after(timeout), for: { $0.contains(where: predicate) }) { items in
            items.remove(at: items.firstIndex(where: predicate)!)
        }
    }

    public var all: [T] { items.withLock { $0 } }
}

/// Waits until `process` has ended, at most `timeout` seconds; returns whether it did. Woken by the process's
/// termination (its `terminationHandler`, which this sets), not by polling.
public func waitForExit(_ process: Process, timeout: Double) -> Bool {
    let ended = Mailbox<Int32>()
    process.terminationHandler = { ended.put($0.terminationStatus) }
    if !process.isRunning { return true }  // it ended before the handler was in place
    return ended.take(timeout: timeout) != nil || !process.isRunning
}

/// Waits until `condition` (about files in `folders`: one another process writes growing past a size,
/// appearing, going) holds, at most `timeout` seconds; returns whether it held at the end. Woken by inotify
/// each time a name in one of the folders is made, written, closed, moved or deleted, and by the end of
/// `process` (a pidfd in the same poll), after which the condition is looked at once more: a writer that
/// ended will not change the file again. Only for folders on the local disk: inotify hears nothing of what
/// the far side of a FUSE mount (or any network file system) changes.
public func waitForFile(
    in folders: String..., until condition: () -> Bool, orEndOf process: Process? = nil, timeout: Double
) throws -> Bool {
    let deadline = Deadline.after(timeout)
    // Watched before the first look, so that nothing that happens between the look and the wait is missed.
    let events = try FolderEvents()
    for folder in folders { _ = try events.add(folder: folder) }
    var end: EndWatch?
    if let process {
        // No process left to watch: it ended already (and was reaped).
        guard process.isRunning, let watch = try EndWatch(process: process.processIdentifier) else { return condition() }
        end = watch
    }
    let descriptors = [events.descriptor] + (end.map { [$0.descriptor] } ?? [])
    while !condition() {
        if deadline.hasPassed { return false }
        let seen = try pollDescriptors(descriptors, events: .readable, deadline: deadline)
        if seen.count > 1, !seen[1].isEmpty { return condition() }
        _ = events.take()
    }
    return true
}
