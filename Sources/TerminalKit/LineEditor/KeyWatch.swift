#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A key pressed while a command draws (`liveview` runs "until a key"): standard input in non-canonical
/// mode without echo for the time of `watching`, Ctrl-C still a signal, asked without waiting. Standard
/// input that is not a terminal is never read (a script's next lines stay its own).
public enum KeyWatch {
    /// Runs `body` with a function that says whether a key was pressed since it last asked (reading it).
    public static func watching<T>(_ body: (_ pressed: () -> Bool) throws -> T) rethrows -> T {
        guard isatty(0) == 1 else { return try body { false } }
        var saved = termios()
        guard tcgetattr(0, &saved) == 0 else { return try body { false } }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        tcsetattr(0, TCSANOW, &raw)
        defer { tcsetattr(0, TCSANOW, &saved) }
        return try body {
            var poller = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 0) > 0 else { return false }
            var bytes = [UInt8](repeating: 0, count: 64)
            return read(0, &bytes, bytes.count) > 0
        }
    }
}
