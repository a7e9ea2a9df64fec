import POSIX
import Foundation

/// A one-way gate between threads: `wait` returns once `open` was called (bounded, so a bug fails a test
/// instead of hanging it).
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func open() { semaphore.signal() }
    func wait() { _ = semaphore.wait(timeout: .now() + 30) }
}
