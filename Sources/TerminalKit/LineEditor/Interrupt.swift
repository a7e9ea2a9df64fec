import CMediaShellShim
import POSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Ctrl-C for the whole process: a flag set by a SIGINT handler, and a pipe that becomes readable when it is.
///
/// The line editor discards the line on Ctrl-C; long commands check `isPending` (or `check()`) between
/// chunks, or poll `pollDescriptor` beside their socket. Clear it before each prompt and each command.
/// This is the only Swift file that calls the C shim.
public struct Interrupt: Sendable {
    /// Readable once SIGINT arrived, until `clear()`.
    public let pollDescriptor: Int32

    /// Installs the SIGINT and SIGWINCH handlers (without SA_RESTART, so blocking reads return EINTR) and
    /// unblocks the terminal signals in the calling thread. SIGTERM and SIGHUP stop the running command as
    /// Ctrl-C does and stay pending, so the shell closes the camera and exits (`terminationSignal`); a
    /// second one exits at once. Safe to call more than once.
    public static func install() throws(SystemError) -> Interrupt {
        let descriptor = msh_install_interrupt_handler()
        if descriptor < 0 { throw SystemError("sigaction", on: "SIGINT", errno: errno) }
        if msh_install_shell_termination_handlers() != 0 {
            throw SystemError("sigaction", on: "SIGTERM, SIGHUP", errno: errno)
        }
        if msh_install_resize_handler() != 0 { throw SystemError("sigaction", on: "SIGWINCH", errno: errno) }
        unblockTerminalSignals()
        return Interrupt(pollDescriptor: descriptor)
    }

    /// For a server that runs until stopped: SIGINT and SIGTERM both set the flag and wake the pipe.
    public static func installForServer() throws(SystemError) -> Interrupt {
        let descriptor = msh_install_termination_handler()
        if descriptor < 0 { throw SystemError("sigaction", on: "SIGTERM", errno: errno) }
        unblockTerminalSignals()
        return Interrupt(pollDescriptor: descriptor)
    }

    /// Blocks until SIGINT (or SIGTERM for a server) arrives.
    public func wait() {
        var entry = pollfd(fd: pollDescriptor, events: Int16(POLLIN), revents: 0)
        while !isPending {
            if poll(&entry, 1, -1) < 0 && errno != EINTR { return }
        }
    }

    /// True when Ctrl-C arrived since the last `clear()`.
    public var isPending: Bool { msh_interrupt_pending() != 0 }

    /// Forgets a Ctrl-C that arrived, and empties the pipe (not after SIGTERM or SIGHUP: the shell is ending).
    public func clear() { msh_clear_interrupt() }

    /// SIGTERM or SIGHUP, once one arrived: the shell is to close the camera and exit with 128 + it.
    public var terminationSignal: Int32? {
        let signal = msh_termination_signal_received()
        return signal == 0 ? nil : signal
    }

    /// Throws `Interrupted` when Ctrl-C arrived; for long commands to call between chunks.
    public func check() throws(Interrupted) {
        if isPending { throw Interrupted() }
    }

    /// Unblocks SIGINT, SIGWINCH and the job-control signals in the calling thread (Swift concurrency's
    /// threads start with them blocked, and child processes inherit that mask).
    public static func unblockTerminalSignals() {
        _ = msh_unblock_terminal_signals()
    }

    /// True once after the terminal was resized (SIGWINCH).
    static func takeResize() -> Bool { msh_take_resize() != 0 }
}

/// What the interpreter needs of Ctrl-C: whether it arrived, forgetting it, and waiting a while for it.
/// `Interrupt` is the real one; tests give the interpreter one they control.
public protocol InterruptSource: Sendable {
    /// True when Ctrl-C arrived since the last `clear()`.
    var isPending: Bool { get }
    /// Forgets a Ctrl-C that arrived.
    func clear()
    /// Waits up to `seconds` or until Ctrl-C arrives (at once when it already did); true when it did.
    func waitForInterrupt(upTo seconds: Double) -> Bool
    /// SIGTERM or SIGHUP, once one arrived: the shell ends after the running command.
    var terminationSignal: Int32? { get }
}

extension InterruptSource {
    public var terminationSignal: Int32? { nil }

    /// Ctrl-C as the work below the prompt hears it: cancelled while one is pending.
    public var cancellation: Cancellation { Cancellation(when: { [self] in isPending }) }
}

extension Interrupt: InterruptSource {
    public func waitForInterrupt(upTo seconds: Double) -> Bool {
        var remaining = max(0, seconds)
        while !isPending {
            guard remaining > 0 else { return false }
            let started = monotonicSeconds()
            do {
                _ = try pollDescriptors([pollDescriptor], events: .readable, deadline: .after(min(remaining, 60)))
            } catch {
                return isPending
            }
            remaining -= monotonicSeconds() - started
        }
        return true
    }
}

/// A command stopped by Ctrl-C, with what became of the camera when that matters (it was closed).
public struct Interrupted: Error, Sendable, Hashable, CustomStringConvertible {
    public var detail: String?
    public init(detail: String? = nil) { self.detail = detail }
    public var description: String { detail.map { "interrupted; " + $0 } ?? "interrupted" }
}
