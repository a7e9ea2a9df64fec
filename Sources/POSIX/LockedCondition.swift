#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `Locked`'s twin for state that threads wait on: the value behind a pthread mutex, and a condition variable
/// on that mutex whose waits end at a `Deadline` on the monotonic clock (a wall-clock change neither cuts a
/// wait short nor stretches it). The shape of NIO's `ConditionLock`: a change wakes the waiters, and a waiter
/// sleeps until the value is as it needs it.
///
/// Nothing but the closures given here runs with the lock held, and those must not call back into the same
/// `LockedCondition` (it is not reentrant) nor take another lock that is held while this one is taken.
public final class LockedCondition<Value>: @unchecked Sendable {
    // Safe because `value` is read and written only inside the methods below, with `mutex` held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var value: Value

    public init(_ initialValue: sending Value) {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        precondition(pthread_cond_init(condition, &attributes) == 0, "pthread_cond_init failed")
        pthread_condattr_destroy(&attributes)
        value = initialValue
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Reads or changes the value without waking anyone (a change no waiter waits for).
    public func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        lock()
        defer { unlock() }
        return try body(&value)
    }

    /// Changes the value and wakes every waiter, which then looks at it again.
    @discardableResult
    public func change<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        lock()
        defer {
            pthread_cond_broadcast(condition)
            unlock()
        }
        return try body(&value)
    }

    /// Waits until `isReady` says the value is as the caller needs it, or until `deadline` (nil: for ever);
    /// then runs `body` with the lock still held, so what was seen is what it acts on, and wakes the other
    /// waiters (it may have changed the value). Returns `body`'s result, or nil when the deadline came first
    /// (`body` does not run then).
    public func wait<Result>(
        until deadline: Deadline?, for isReady: (borrowing Value) -> Bool,
        then body: (inout sending Value) -> sending Result
    ) -> sending Result? {
        lock()
        defer { unlock() }
        while !isReady(value) {
            guard let deadline else {
                pthread_cond_wait(condition, mutex)
                continue
            }
            var moment = Self.absoluteTime(deadline)
            if pthread_cond_timedwait(condition, mutex, &moment) == ETIMEDOUT, !isReady(value) { return nil }
        }
        defer { pthread_cond_broadcast(condition) }
        return body(&value)
    }

    /// Waits as `wait(until:for:then:)`, changing nothing, and says whether the value became ready before
    /// `deadline`.
    public func wait(until deadline: Deadline?, for isReady: (borrowing Value) -> Bool) -> Bool {
        lock()
        defer { unlock() }
        while !isReady(value) {
            guard let deadline else {
                pthread_cond_wait(condition, mutex)
                continue
            }
            var moment = Self.absoluteTime(deadline)
            if pthread_cond_timedwait(condition, mutex, &moment) == ETIMEDOUT { return isReady(value) }
        }
        return true
    }

    private func lock() { precondition(pthread_mutex_lock(mutex) == 0, "pthread_mutex_lock failed") }
    private func unlock() { pthread_mutex_unlock(mutex) }

    /// A deadline as the absolute CLOCK_MONOTONIC time `pthread_cond_timedwait` takes.
    private static func absoluteTime(_ deadline: Deadline) -> timespec {
        let seconds = max(0, deadline.seconds)
        let whole = seconds.rounded(.down)
        return timespec(tv_sec: Int(whole), tv_nsec: min(999_999_999, Int((seconds - whole) * 1e9)))
    }
}
