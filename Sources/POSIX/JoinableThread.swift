#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A thread that can be joined, so whoever starts it can wait until it is really gone (Foundation's
/// Thread cannot be joined, which makes counting threads after a shutdown racy, and leaves a stop that
/// waits for its threads to a guessed bound).
public final class JoinableThread: Sendable {
    private struct State {
        var handle = pthread_t()
        var joined = false
        var finished = false
    }

    private let state = Locked(State())

    private final class Context: @unchecked Sendable {
        // Safety: immutable, handed once to the new thread.
        let name: String
        let body: @Sendable () -> Void
        let thread: JoinableThread
        init(name: String, body: @escaping @Sendable () -> Void, thread: JoinableThread) {
            self.name = name
            self.body = body
            self.thread = thread
        }
    }

    /// Starts `body` on a new thread named `name` (cut to the 15 characters Linux keeps).
    public init(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemError) {
        let box = Context(name: name, body: body, thread: self)
        let context = Unmanaged.passRetained(box).toOpaque()
        // The lock is held until the handle is stored, so the new thread never sees it unset.
        let status = state.withLock { state in
            pthread_create(&state.handle, nil, { raw in
                let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
                nameCurrentThread(context.name)
                context.body()
                context.thread.state.withLock { $0.finished = true }
                return nil
            }, context)
        }
        if status != 0 { Unmanaged<Context>.fromOpaque(context).release() }
        try checkReturnedErrno(.start, on: "thread \(name)", status)
    }

    /// True once the body has returned (the thread is about to end; `join` will not wait long).
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// True when called on this thread.
    public var isCurrent: Bool { state.withLock { pthread_equal($0.handle, pthread_self()) != 0 } }

    /// Waits for the thread to end. Calling it again, or from the thread itself, does nothing.
    public func join() {
        let target: pthread_t? = state.withLock { state in
            if state.joined || pthread_equal(state.handle, pthread_self()) != 0 { return nil }
            state.joined = true
            return state.handle
        }
        if let target { _ = pthread_join(target, nil) }
    }

    deinit {
        // Never joined (its owner was dropped): let the system reclaim it when it ends.
        state.withLock { state in
            if !state.joined { _ = pthread_detach(state.handle) }
        }
    }
}

/// Names the calling thread (as `pthread_setname_np` would; that one is not visible to Swift): the name
/// shows in `top -H`, debuggers and /proc/self/task/*/comm.
private func nameCurrentThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    _ = close(fd)
}
