import Foundation

/// A one-way gate between threads: `wait` returns once `open` was called (bounded, so a bug fails a test
/// instead of hanging it).
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func open() { semaphore.signal() }
    func wait() { _ = semaphore.wait(timeout: .now() + 30) }
}

/// A value handed between threads.
final class Box<Value: Sendable>: @unchecked Sendable {
    // Safety: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value?
    func set(_ new: Value) { lock.withLock { value = new } }
    func get() -> Value? { lock.withLock { value } }
}
