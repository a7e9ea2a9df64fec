import TerminalKit
import Transfers

/// How a script (a file, `-c` text, piped standard input or `source`) ended.
public enum ScriptResult: Sendable, Equatable {
    /// Every line ran; `failed` when a command failed while `errexit` was off.
    case finished(failed: Bool)
    /// A command failed and the script stopped there (the error named the file and line).
    case stopped
    /// Ctrl-C (SIGINT) stopped it.
    case interrupted
    /// `quit` ended it.
    case quit(failed: Bool)

    /// The process exit status for this ending: 0 when every command succeeded, 1 after a failure,
    /// 130 after an interrupt (as shells report SIGINT).
    public var exitStatus: Int32 {
        switch self {
        case .finished(let failed), .quit(let failed): failed ? 1 : 0
        case .stopped: 1
        case .interrupted: 130
        }
    }
}

extension Interpreter {
    /// Runs the lines of `source` as a script called `name` (`import.msh`, `-c`, `stdin`): no prompt,
    /// errors as `name:LINE: error: ...`, stopping at the first failure unless the command has a leading
    /// `-` or `errexit` is off. `showsLine` false: errors say `name: error: ...` (a program's one line).
    public func runScript(_ source: LineSource, name: String) -> ScriptResult {
        runScript(source, name: name, showsLine: true)
    }

    func runScript(_ source: LineSource, name: String, showsLine: Bool) -> ScriptResult {
        locations.append(ScriptLocation(name: name, line: 0, showsLine: showsLine))
        defer { locations.removeLast() }
        var failed = false
        while true {
            let input = source.readLine()
            switch input {
            case .line(let text):
                locations[locations.count - 1].line += 1
                switch run(line: text) {
                case .success: continue
                case .failure:
                    failed = true
                    if state.settings.errexit && !isRunningConfig { return .stopped }
                case .interrupted: return .interrupted
                case .quit: return .quit(failed: failed)
                }
            case .interrupted:
                return .interrupted
            case .endOfInput:
                return .finished(failed: failed)
            case .failed(let message):
                locations[locations.count - 1].line += 1
                report(message)
                return .stopped
            }
        }
    }

    /// Reads and runs lines at the prompt until `quit` or Ctrl-D. Failures are reported and the shell goes
    /// on; Ctrl-C discards the line being typed or stops the running command. SIGTERM or SIGHUP stops it and
    /// ends the loop (128 + the signal).
    public func runInteractive(_ source: LineSource) -> Int32 {
        while true {
            // Jobs that ended since the last prompt say so now, before it (as a POSIX shell does).
            sayEndedJobs()
            output.flush()
            if let signal = interrupt.terminationSignal {
                if !jobs.running.isEmpty { killJobs() }
                return 128 + signal
            }
            switch source.readLine() {
            case .line(let text):
                if run(line: text) == .quit {
                    if settleJobsBeforeExit(interactive: true).mayLeave { return 0 }
                    quitRequested = false
                }
                completion.prepare()
            case .interrupted:
                continue
            case .endOfInput:
                if settleJobsBeforeExit(interactive: true).mayLeave { return 0 }
            case .failed(let message):
                report(message)
                return 1
            }
        }
    }
}

extension Interpreter {
    /// The end of a top-level script (a file, `-c`, piped input): jobs still running are waited for (or
    /// killed, `set jobs-on-exit kill`) and said; a job that failed makes a successful script's status 1.
    public func finishScript(_ result: ScriptResult) -> ScriptResult {
        let settled = settleJobsBeforeExit(interactive: false)
        guard settled.jobFailed else { return result }
        switch result {
        case .finished: return .finished(failed: true)
        case .quit: return .quit(failed: true)
        case .stopped, .interrupted: return result
        }
    }
}

/// The lines of a text given on the command line (`-c 'ls; fetch *.JPG'`), one by one.
public final class TextLineSource: LineSource {
    private var lines: ArraySlice<Substring>

    public init(_ text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        self.lines = lines[...]
    }

    public func readLine() -> LineInput {
        guard let line = lines.popFirst() else { return .endOfInput }
        return .line(String(line.hasSuffix("\r") ? line.dropLast() : line))
    }
}
