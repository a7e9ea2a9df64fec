import Foundation
import MediaManager
import POSIX
import PTP
import TestSupport
import VirtualCamera

@testable import Shell
@testable import TerminalKit

/// An interpreter's output as it comes, line by line, for a test that waits on a line while a command that
/// runs until Ctrl-C (`events`, `watch`) is still running on another thread.
final class LiveOutput: ShellOutput, Sendable {
    let lines = Mailbox<String>()
    let errors = Mailbox<String>()
    private let pending = Locked("")

    func write(_ text: String) {
        let complete: [String] = pending.withLock { pending in
            pending += text
            var parts = pending.components(separatedBy: "\n")
            pending = parts.removeLast()
            return parts
        }
        for line in complete { lines.put(line) }
    }
    func error(_ line: String) { errors.put(line) }
    var progress: ((String) -> Void)? { nil }
    var terminalColumns: Int? { nil }
    func flush() {}
}

/// An interpreter with live output running one line on a thread of its own; `press()` is Ctrl-C.
final class LiveShell: @unchecked Sendable {
    // Safety: the interpreter is used by the running thread only, until `finished` has its status.
    let interpreter: Interpreter
    let output = LiveOutput()
    let interrupt = ScriptedInterrupt()
    let finished = Mailbox<LineStatus>()
    /// Every line `line(where:)` has taken, matching or not (for a failing test's message).
    let seen = Mailbox<String>()

    init(settings: Settings = Settings()) {
        interpreter = Interpreter(output: output, interrupt: interrupt, settings: settings)
    }

    func start(_ line: String) {
        Thread { [self] in finished.put(interpreter.run(line: line)) }.start()
    }

    /// The next line that satisfies `predicate` (lines before it are dropped), waiting at most `timeout`.
    func line(timeout: Double = 10, where predicate: @escaping (String) -> Bool) -> String? {
        let deadline = Deadline.after(timeout)
        while let line = output.lines.take(timeout: deadline.remaining) {
            seen.put(line)
            if predicate(line) { return line }
        }
        return nil
    }

    /// Ctrl-C, then how the line ended.
    func stop(timeout: Double = 10) -> LineStatus? {
        interrupt.press()
        return finished.take(timeout: timeout)
    }
}

/// A second initiator on the same virtual camera, in this process: what another program (gphoto2, the
/// camera's own buttons) does while the shell watches.
func secondClient(of camera: VirtualCamera) throws -> Camera {
    let (initiator, responder) = InMemoryTransport.makePair(chunkSize: 1 << 20, timeout: 10)
    Thread { camera.serve(responder, peer: "second") }.start()
    return try Camera(transport: initiator, location: "second") { responder.close() }
}
