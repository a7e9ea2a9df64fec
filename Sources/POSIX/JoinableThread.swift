#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import CMediaShellShim

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
        let body: @Sendable () -> Void
        let thread: JoinableThread
        init(body: @escaping @Sendable () -> Void, thread: JoinableThread) {
            self.body = body
            self.thread = thread
        }
    }

    /// Starts `body` on a new thread named `name` (cut to the 15 characters Linux keeps). The name is there
    /// when this returns, so whoever looks at the process's threads next sees it named.
    public init(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemError) {
        let box = Context(body: body, thread: self)
        let context = Unmanaged.passRetained(box).toOpaque()
        // The lock is held until the handle is stored (and the thread named), so the new thread never sees
        // the handle unset.
        let status = state.withLock { state in
            let status = pthread_create(&state.handle, nil, { raw in
                let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
                context.body()
                context.thread.state.withLock { $0.finished = true }
                return nil
            }, context)
            // A name that cannot be set (no /proc) leaves the process's own: nothing depends on it.
            if status == 0 { _ = msh_name_thread(state.handle, String(decoding: name.utf8.prefix(15), as: UTF8.self)) }
            return status
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
