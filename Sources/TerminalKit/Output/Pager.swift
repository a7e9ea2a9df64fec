import POSIX

/// Text longer than the screen, shown through the user's pager (`$PAGER`, as git and man do) at an
/// interactive terminal; the caller decides when (never for a script or a pipe).
public enum Pager {
    /// The pager to run: `$PAGER` as set (set but empty: none), else `less -FRX` when `less` is on `PATH`
    /// (quits by itself when the text fits, keeps colours, leaves the text on the screen), else none.
    public static func command(environment: [String: String]) -> String? {
        if let set = environment["PAGER"] { return set.allSatisfy { $0 == " " || $0 == "\t" } ? nil : set }
        return findExecutable("less", path: environment["PATH"]) != nil ? "less -FRX" : nil
    }

    /// Runs `command` with `/bin/sh -c` on this terminal (in the shell's process group, so its keys reach
    /// it), `text` on its standard input, and waits for it. A pager that quits before reading everything
    /// (`q`) is fine. Returns false when it could not be started, or exited 126 or 127 (sh could not run
    /// it): the caller then prints the text itself.
    public static func show(_ text: String, command: String) -> Bool {
        var options = ChildProcess.Options()
        options.standardInput = .capture
        options.standardOutput = .inherit
        options.standardError = .inherit
        options.sharesTerminal = true
        guard let child = try? ChildProcess.spawn(executable: "/bin/sh", arguments: ["-c", command], options: options),
            let input = child.standardInput
        else { return false }
        // EPIPE: the pager ended before reading it all (the user quit it, or it never ran).
        try? input.send(Array(text.utf8), .forever)
        input.close()
        _ = child.reap(blocking: true)
        if let code = child.exitCode, code == 126 || code == 127 { return false }
        return true
    }
}
