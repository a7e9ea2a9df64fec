import MediaManager
import POSIX

/// An open under way on another thread: its result, or, once the opener gave up waiting, nobody to take
/// it (the session is closed as soon as it arrives).
final class PendingOpen: Sendable {
    private struct State {
        var result: Result<MediaSession, Error>?
        var abandoned = false
    }

    private let state = LockedCondition(State())

    func deliver(_ outcome: Result<MediaSession, Error>) {
        let nobodyWaits = state.change { state -> Bool in
            if !state.abandoned { state.result = outcome }
            return state.abandoned
        }
        if nobodyWaits, case .success(let session) = outcome { session.close() }
    }

    /// The result once it arrived; nil (and the open abandoned) when `cancellation` said so first, asked every
    /// `interval` seconds (without the lock held), each time after `whileWaiting` ran on this thread.
    func wait(
        pollingEvery interval: Double, until cancellation: Cancellation, whileWaiting: () -> Void = {}
    ) -> Result<MediaSession, Error>? {
        while true {
            let arrived: Result<MediaSession, Error>?? = state.wait(
                until: .after(interval), for: { $0.result != nil }, then: { $0.result })
            if let arrived { return arrived }
            whileWaiting()
            if cancellation.isCancelled {
                let late = state.withLock { state -> Result<MediaSession, Error>? in
                    if state.result == nil { state.abandoned = true }
                    return state.result
                }
                return late
            }
        }
    }
}
