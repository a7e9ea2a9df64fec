import TerminalKit

/// An output that writes where `output` does and also hands each line to `heard`: what a program that runs
/// the shell's commands (`mediashell import --plugged`) reports elsewhere, a desktop notification.
final class HeardOutput: ShellOutput {
    private let output: any ShellOutput
    private let heard: (String) -> Void

    init(_ output: any ShellOutput, heard: @escaping (String) -> Void) {
        self.output = output
        self.heard = heard
    }

    func write(_ text: String) {
        output.write(text)
        for line in text.split(separator: "\n") { heard(String(line)) }
    }

    func line(_ line: String) {
        output.line(line)
        heard(line)
    }

    func error(_ line: String) {
        output.error(line)
        heard(line)
    }

    func note(_ line: String) {
        output.note(line)
        heard(line)
    }

    var progress: ((String) -> Void)? { output.progress }
    var terminalColumns: Int? { output.terminalColumns }
    var terminalRows: Int? { output.terminalRows }
    var terminalCellPixels: (width: Int, height: Int)? { output.terminalCellPixels }
    func flush() { output.flush() }
    var writeFailure: Int32? { output.writeFailure }
    func clearWriteFailure() { output.clearWriteFailure() }
}
