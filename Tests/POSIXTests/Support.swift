import POSIX
import Foundation
import TestSupport

/// A one-way gate between threads: `wait` returns once `open` was called (bounded, so a bug fails a test
/// instead of hanging it).
final class Gate: Sendable {
    private let semaphore = Mailbox<Void>()
    func open() { semaphore.put(()) }
    func wait() { _ = semaphore.take(timeout: 30) }
}
