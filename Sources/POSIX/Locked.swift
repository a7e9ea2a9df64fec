#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value that can only be touched with its lock held: the shape of `Synchronization.Mutex`
/// (`withLock { state in ... }`), built on a pthread mutex.
///
/// Why not `Synchronization.Mutex`: on Linux it waits on a raw futex, which the thread sanitizer cannot see,
/// so every access it guards is reported as a race and a sanitized run (`scripts/test-tsan`) could not tell
/// a real race from the lock doing its job. A pthread mutex is one the sanitizer knows, and it is as fast
/// when uncontended. Every mutable state shared between threads in this project lives in one of these
/// (`scripts/check-layers` refuses `import Synchronization` in Sources).
public final class Locked<Value>: @unchecked Sendable {
    // Safe because `value` is read and written only inside `withLock`, with `mutex` held; the value goes
    // in and out as `sending`, so no reference to a non-Sendable state escapes the lock.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ initialValue: sending Value) {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed (\(status))")
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held and the value lent to it for reading and writing. Not reentrant:
    /// `body` must not call `withLock` on the same value again.
    public func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let status = pthread_mutex_lock(mutex)
        precondition(status == 0, "pthread_mutex_lock failed (\(status))")
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

extension Locked where Value == UInt8 {
    /// A lock held for a turn of work, guarding no value of its own (one write at a time on a socket, one
    /// scan of a folder). Not `Locked(())`: the thread sanitizer places an empty value's accesses at the
    /// object's own header, and reported a turn taken on one thread against a plain method call on another.
    public static func turn() -> Locked<UInt8> { Locked(0) }
}
