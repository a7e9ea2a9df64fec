import POSIX
import Foundation

/// A one-way gate between threads: `wait` returns once `open` was called (bounded, so a bug fails a test
/// instead of hanging it).
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func open() { semaphore.signal() }
    func wait() { _ = semaphore.wait(timeout: .now() + 30) }
}

/// A value handed between threads.
final class Box<Value: Sendable>: Sendable {
    private let value = Locked<Value?>(nil)
    func set(_ new: Value) { value.withLock { $0 = new } }
    func get() -> Value? { value.withLock { $0 } }
}
