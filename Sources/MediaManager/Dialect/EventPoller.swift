import Foundation
import POSIX
import PTP

/// Asks a camera whose dialect polls for its changes (`CameraDialect.poll`) every `interval` seconds while
/// at least one listener holds a lease, and hands what it heard to `deliver`; keeps the body awake
/// (`keepAlive`) on the way. No lease, no requests: an idle prompt sends nothing. The thread stops when the
/// last lease goes or `stop` is called, and `stop` waits for it.
final class EventPoller: Sendable {
    private struct State {
        var leases = 0
        var thread: JoinableThread?
        var stopped = false
        /// When the last poll ended (`freshnessClock` seconds), for `catchUp`.
        var lastPoll: Double = -.infinity
        /// True while a poll is under way (the thread's or a catch-up's): polls never overlap.
        var polling = false
        /// The error that ended the thread's polling (a camera gone); cleared by the next lease.
        var failure: String?
        /// True from a lease's start of the thread until the thread decides (under the lock) to end.
        var running = false
    }

    private let state = Locked(State())
    private let interval: TimeInterval
    private let keepAliveInterval: TimeInterval?
    private let pollOnce: @Sendable () throws -> [PTPEvent]
    private let keepAlive: @Sendable () throws -> Void
    private let deliver: @Sendable ([PTPEvent]) -> Void
    /// What `catchUp`'s freshness is measured on (a test's manual clock moves it past the second).
    private let freshnessClock: any WaitClock
    /// How finely the thread's wait between polls is cut, so that a stop is heard soon.
    private static let slice: Double = 0.05

    init(
        interval: TimeInterval, keepAliveInterval: TimeInterval?, poll: @escaping @Sendable () throws -> [PTPEvent],
        keepAlive: @escaping @Sendable () throws -> Void, deliver: @escaping @Sendable ([PTPEvent]) -> Void,
        freshnessClock: any WaitClock = MonotonicClock()
    ) {
        self.freshnessClock = freshnessClock
        self.interval = interval
        self.keepAliveInterval = keepAliveInterval
        self.pollOnce = poll
        self.keepAlive = keepAlive
        self.deliver = deliver
    }

    /// Starts polling (if it was not already) until `release` is called as often.
    func acquire() {
        let start = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.leases += 1
            state.failure = nil
            guard !state.running else { return false }
            state.running = true
            return true
        }
        guard start else { return }
        do {
            let thread = try JoinableThread(name: "event-poll") { [self] in run() }
            let old = state.withLock { state -> JoinableThread? in
                let old = state.thread
                state.thread = thread
                return old
            }
            old?.join()  // it ended (running was false): this only reaps it
        } catch {
            state.withLock {
                $0.running = false
                $0.failure = "\(error)"
            }
        }
    }

    func release() {
        state.withLock { $0.leases = max(0, $0.leases - 1) }
    }

    /// True while a lease is held (tests, `summary`).
    var isPolling: Bool { state.withLock { $0.leases > 0 && !$0.stopped } }

    /// One poll now unless one ran within `freshness` seconds or one is under way (the catalog, before it
    /// answers from its cache, so that a camera nobody listens to is still heard at each command).
    func catchUp(freshness: TimeInterval) throws {
        let go = state.withLock { state -> Bool in
            guard !state.stopped, !state.polling, freshnessClock.now() - state.lastPoll >= freshness else { return false }
            state.polling = true
            return true
        }
        guard go else { return }
        defer { state.withLock { $0.polling = false } }
        let events = try pollOnce()
        let now = freshnessClock.now()
        state.withLock { $0.lastPoll = now }
        if !events.isEmpty { deliver(events) }
    }

    /// Ends polling for good and waits for the thread.
    func stop() {
        let thread = state.withLock { state -> JoinableThread? in
            state.stopped = true
            return state.thread
        }
        thread?.join()
    }

    /// Whether the thread goes on: false (and no longer running, decided under the lock so a new lease
    /// starts a new thread) once no lease is held or polling was stopped.
    private func shouldContinue() -> Bool {
        state.withLock { state in
            if state.leases > 0 && !state.stopped { return true }
            state.running = false
            return false
        }
    }

    private func run() {
        var nextKeepAlive = keepAliveInterval.map { monotonicSeconds() + $0 }
        while shouldContinue() {
            // A catch-up poll under way stands for this round.
            let mine = state.withLock { state -> Bool in
                if state.polling { return false }
                state.polling = true
                return true
            }
            if mine {
                do {
                    let events = try pollOnce()
                    let now = freshnessClock.now()
                    state.withLock {
                        $0.lastPoll = now
                        $0.polling = false
                    }
                    if !events.isEmpty { deliver(events) }
                    if let due = nextKeepAlive, monotonicSeconds() >= due {
                        // A body that refuses the keep-alive is not kept awake, but still polled.
                        do { try keepAlive() } catch let error as PTPError where error.responseCode != nil {}
                        nextKeepAlive = keepAliveInterval.map { monotonicSeconds() + $0 }
                    }
                } catch {
                    // The camera went away or refused: the listeners notice it by their own requests.
                    state.withLock {
                        $0.polling = false
                        $0.failure = "\(error)"
                        $0.running = false
                    }
                    return
                }
            }
            let wake = monotonicSeconds() + interval
            while monotonicSeconds() < wake {
                guard shouldContinue() else { return }
                sleep(until: Deadline(monotonicSeconds: min(wake, monotonicSeconds() + Self.slice)))
            }
        }
    }
}
