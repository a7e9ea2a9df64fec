#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A critical section the thread inside may enter again (a pthread mutex of type RECURSIVE): for a transport's
/// one-transaction-at-a-time lock, where a data sink called inside a transaction may close the transport,
/// which takes the same lock. It guards no value of its own (a value lent `inout` twice on one thread would
/// break Swift's exclusivity): keep the state it orders in a `Locked`.
public final class ReentrantMutex: @unchecked Sendable {
    // Safe because the mutex is only used through pthread calls, which are thread-safe.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        precondition(pthread_mutex_init(mutex, &attributes) == 0, "pthread_mutex_init failed")
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` inside the section (waiting for another thread to leave it; entering again at once when
    /// this thread is already inside).
    public func withLock<Result, E: Error>(_ body: () throws(E) -> Result) throws(E) -> Result {
        precondition(pthread_mutex_lock(mutex) == 0, "pthread_mutex_lock failed")
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
