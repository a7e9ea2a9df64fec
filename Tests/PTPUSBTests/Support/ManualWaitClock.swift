import POSIX
import Synchronization

/// A clock that moves only when the code under test pauses: a recovery loop bounded by `recovery` seconds
/// runs its exact number of tries, at once, whatever the machine's load.
final class ManualWaitClock: WaitClock {
    private let seconds = Mutex(1000.0)
    private let pauses = Mutex(0)

    func now() -> Double { seconds.withLock { $0 } }
    func pause(_ interval: Double) {
        seconds.withLock { $0 += interval }
        pauses.withLock { $0 += 1 }
    }
    /// How many times the code paused.
    var pauseCount: Int { pauses.withLock { $0 } }
}
