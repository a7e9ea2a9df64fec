import Glibc

/// The scheduling priority of the calling thread.
public enum ThreadPriority {
    /// Makes the calling thread the last to run when the cores are busy (nice 19; Linux keeps a nice
    /// value per thread, and `who` 0 names the calling thread): for background work, such as a
    /// watcher's scan of a big folder, that must not slow down the requests a server answers meanwhile.
    /// Best effort: a refusal changes nothing.
    public static func makeCurrentThreadBackground() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
    }
}
