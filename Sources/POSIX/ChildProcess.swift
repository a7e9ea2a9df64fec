#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import CMediaShellShim

/// A child process started with posix_spawn: its own process group (Ctrl-C at the shell does not reach it),
/// default signal dispositions and an empty signal mask (whatever the spawning thread had blocked), and
/// standard input, output and error as `Options` say. The one way this program starts another (mpv, ffmpeg).
///
/// Captured streams are Unix socket pairs rather than pipes, so writing to a child that exited fails with
/// EPIPE (MSG_NOSIGNAL) instead of raising SIGPIPE, and every wait on them has a bound.
public final class ChildProcess: Sendable {
    /// Where a standard stream goes.
    public enum Stream: Sendable {
        /// /dev/null.
        case null
        /// A socket this process holds the other end of (`standardInput` / `standardOutput`).
        case capture
        /// A file, created or truncated, mode 0600 (output streams only).
        case file(String)
        /// Wherever standard output goes (standard error only).
        case sameAsOutput
        /// This process's own stream, shared (a command the user runs at the prompt: `!ls`).
        case inherit
    }

    public struct Options: Sendable {
        public var standardInput: Stream = .null
        public var standardOutput: Stream = .null
        public var standardError: Stream = .null
        /// Sockets handed down, each at the descriptor number given (3 and up).
        public var handDown: [(socket: Socket, as: Int32)] = []
        /// Stay in this process's group, so that the terminal's keys (Ctrl-C) and reads reach the child
        /// too: for a command the user runs at the prompt, never for a helper such as mpv or ffmpeg.
        public var sharesTerminal = false
        public init() {}
    }

    public let pid: pid_t
    /// Writes to the child's standard input when it is `.capture`d; close it to end the input.
    public let standardInput: Socket?
    /// Reads the child's standard output when it is `.capture`d.
    public let standardOutput: Socket?
    /// The wait status once reaped.
    private let exitStatus = Locked<Int32?>(nil)

    private init(pid: pid_t, standardInput: Socket?, standardOutput: Socket?) {
        self.pid = pid
        self.standardInput = standardInput
        self.standardOutput = standardOutput
    }

    /// Starts `executable` (a path, not searched for) with `arguments` (not including argv[0]).
    public static func spawn(executable: String, arguments: [String], options: Options = Options()) throws(SystemError) -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Descriptors the child takes, kept open here until it has started, closed after.
        var kept: [Socket] = []
        var ours: [Int32: Socket] = [:]

        func attach(_ stream: Stream, to target: Int32, writable: Bool) throws(SystemError) {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", writable ? O_WRONLY : O_RDONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .sameAsOutput:
                posix_spawn_file_actions_adddup2(&actions, 1, target)
            case .inherit:
                break
            case .capture:
                let (mine, theirs) = try Socket.pair()
                ours[target] = mine
                kept.append(theirs)
                try handDown(theirs, as: target)
            }
        }
        func handDown(_ socket: Socket, as target: Int32) throws(SystemError) {
            // dup2 onto the same number would keep close-on-exec: hand down a high copy instead.
            let copy = try socket.leased("dup", on: socket.peer) { fd throws(SystemError) in
                try systemCall("dup") { fcntl(fd, F_DUPFD_CLOEXEC, 10) }
            }
            let holder = Socket(fd: copy, peer: socket.peer)
            kept.append(holder)
            posix_spawn_file_actions_adddup2(&actions, copy, target)
        }

        try attach(options.standardInput, to: 0, writable: false)
        try attach(options.standardOutput, to: 1, writable: true)
        try attach(options.standardError, to: 2, writable: true)
        for (socket, target) in options.handDown { try handDown(socket, as: target) }
        // Nothing else goes down to the child: not a camera's socket, a ledger's lock or a file another
        // thread is writing (which a child holding it open would make unrunnable: ETXTBSY), whether or not
        // whoever opened it asked for close-on-exec.
        let highest = options.handDown.map(\.1).max() ?? 2
        _ = msh_spawn_close_from(&actions, max(highest, 2) + 1)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGCHLD, SIGWINCH] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if !options.sharesTerminal {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        var status = posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], environ)
        // ETXTBSY: the program was written a moment ago and another thread's child, between its fork and
        // its exec, still holds it open for writing. That ends within milliseconds: try again for a while.
        var tries = 0
        while status == ETXTBSY && tries < 50 {
            tries += 1
            sleep(until: .after(0.002 * Double(min(tries, 10))))
            status = posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], environ)
        }
        kept.forEach { $0.close() }
        try checkReturnedErrno(.start, on: executable, status)
        return ChildProcess(pid: pid, standardInput: ours[0], standardOutput: ours[1])
    }

    /// The wait status once the child has ended and was reaped (by `reap`), else nil.
    public var status: Int32? { exitStatus.withLock { $0 } }

    /// The exit code when the child exited normally, nil when it was killed by a signal or is not reaped.
    public var exitCode: Int32? {
        guard let status, status >= 0, status & 0x7f == 0 else { return nil }
        return (status >> 8) & 0xff
    }

    /// Collects the child's exit status: waits for it when `blocking`, else only if it has already ended.
    /// Returns true once the child is gone.
    @discardableResult
    public func reap(blocking: Bool) -> Bool {
        exitStatus.withLock { exitStatus in
            if exitStatus != nil { return true }
            var raw: Int32 = 0
            do throws(SystemError) {
                let reaped = try systemCall(.waitpid) { waitpid(pid, &raw, blocking ? 0 : WNOHANG) }
                if reaped == pid {
                    exitStatus = raw
                    return true
                }
            } catch {
                if error.errno == ECHILD {
                    exitStatus = -1  // reaped elsewhere: it is gone either way
                    return true
                }
            }
            return false
        }
    }

    /// Sends SIGKILL unless the child was already reaped (so a recycled pid is never hit).
    public func kill() {
        exitStatus.withLock { exitStatus in
            if exitStatus == nil { _ = Glibc.kill(pid, SIGKILL) }
        }
    }

    /// Kills the child and waits for it to be gone (SIGKILL cannot be refused, so the wait is short).
    public func killAndReap() {
        kill()
        reap(blocking: true)
    }
}
