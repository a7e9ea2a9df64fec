import Foundation
import POSIX

/// Runs a command of this computer's shell for the user (`!CMD`, `lls`): `/bin/sh -c CMD`, or `$SHELL` alone,
/// on the shell's own terminal and streams, in its process group so that Ctrl-C reaches it. Waits for it.
public enum LocalShell {
    /// Runs `command` with `/bin/sh -c`, or an interactive `$SHELL` (else /bin/sh) when it is nil; returns
    /// the exit code, or 128 + the signal that ended it.
    public static func run(_ command: String?, output: ShellOutput) throws -> Int32 {
        output.flush()
        var options = ChildProcess.Options()
        options.standardInput = .inherit
        options.standardOutput = .inherit
        options.standardError = .inherit
        options.sharesTerminal = true
        let child: ChildProcess
        if let command {
            child = try ChildProcess.spawn(executable: "/bin/sh", arguments: ["-c", command], options: options)
        } else {
            let shell = ProcessInfo.processInfo.environment["SHELL"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/bin/sh"
            child = try ChildProcess.spawn(executable: shell, arguments: [], options: options)
        }
        child.reap(blocking: true)
        if let code = child.exitCode { return code }
        let status = child.status ?? -1
        return status >= 0 ? 128 + (status & 0x7f) : 1
    }

    /// `!CMD` at the start of a line (after blanks): the command it hands to the local shell ("" for `!`
    /// alone), or nil when the line is not one.
    public static func command(in line: String) -> String? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.first == "!" else { return nil }
        return String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces)
    }

    /// `text` in single quotes for /bin/sh.
    public static func quoted(_ text: String) -> String {
        "'" + ShellQuoting.escapeInSingleQuotes(text) + "'"
    }

    /// The words as /bin/sh should read them: quoted, except the wildcards of a glob, which sh expands.
    public static func shellWords(_ words: [Word]) -> String {
        words.map { $0.isGlob ? $0.text : quoted($0.text) }.joined(separator: " ")
    }
}

/// A local command that ended with a status other than 0.
public struct LocalCommandFailed: Error, CustomStringConvertible {
    public let status: Int32

    public init(status: Int32) {
        self.status = status
    }

    public var description: String { status > 128 ? "ended by signal \(status - 128)" : "exited with status \(status)" }
}
