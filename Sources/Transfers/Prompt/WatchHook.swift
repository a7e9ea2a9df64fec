import Foundation
import POSIX
import TerminalKit

/// The command `watch --exec` runs for each file it downloaded. The file's path never becomes shell text:
/// every `{}` of the template stands for `"$1"` and the path is passed to `/bin/sh` as that argument, so
/// a name the device chose (`$(rm -rf ~).JPG`, quotes, newlines) is only ever a word. Without `{}` the path
/// goes last. The hook shares the terminal (its output shows, Ctrl-C reaches it) but not standard input,
/// which in a script holds the script's next lines.
public struct WatchHook {
    public let template: String

    public init(template: String) {
        self.template = template
    }

    /// The shell text the template becomes.
    public var script: String {
        template.contains("{}") ? template.replacingOccurrences(of: "{}", with: "\"$1\"") : template + " \"$1\""
    }

    /// Runs the hook for `path`; returns nil when it exited 0, else how it failed.
    public func run(for path: String, output: ShellOutput) -> String? {
        output.flush()
        var options = ChildProcess.Options()
        options.standardOutput = .inherit
        options.standardError = .inherit
        options.sharesTerminal = true
        do {
            let child = try ChildProcess.spawn(executable: "/bin/sh", arguments: ["-c", script, "mediashell-hook", path], options: options)
            child.reap(blocking: true)
            if let code = child.exitCode { return code == 0 ? nil : "exited with status \(code)" }
            let status = child.status ?? -1
            return status >= 0 ? "ended by signal \(status & 0x7f)" : "ended in an unknown way"
        } catch {
            return "could not start: \(error)"
        }
    }
}
