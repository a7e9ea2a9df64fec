#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import CMediaShellShim

/// The end of a process, or of one thread, as a descriptor that poll(2) reports readable once it has ended
/// (pidfd_open(2)): how a waiter hears of that end, alone or with other descriptors in one poll, without
/// reaping anything itself or looking at /proc again and again.
public final class EndWatch: Sendable {
    private let fd: Int32

    /// Watches the process `pid`; nil when there is no such process (it ended and was reaped).
    public convenience init?(process pid: pid_t) throws(SystemError) {
        try self.init(pid, flags: 0)
    }

    /// Watches one thread, `tid` as /proc/PID/task lists it (PIDFD_THREAD, Linux 6.9 and later: an older
    /// kernel refuses with EINVAL); nil when the thread has ended.
    public convenience init?(thread tid: pid_t) throws(SystemError) {
        try self.init(tid, flags: UInt32(O_EXCL))  // PIDFD_THREAD is O_EXCL's bit
    }

    private init?(_ id: pid_t, flags: UInt32) throws(SystemError) {
        do {
            fd = try systemCall("pidfd_open", on: "\(id)") { msh_pidfd_open(id, flags) }
        } catch where error.errno == ESRCH {
            return nil
        }
    }

    deinit { _ = close(fd) }

    /// Polled readable once the process or thread has ended.
    public var descriptor: Int32 { fd }

    /// Waits until it has ended, at most until `deadline` (nil: for ever); whether it has.
    public func wait(until deadline: Deadline?) throws(SystemError) -> Bool {
        try !pollDescriptors([fd], events: .readable, deadline: deadline)[0].isEmpty
    }
}
