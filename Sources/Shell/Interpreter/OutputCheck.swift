import TerminalKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension Interpreter {
    /// After each command: output that could not be written is that command's failure (`ls > /dev/full`
    /// fails with the reason), except a reader that went away (EPIPE, `| head -1`), which ends the shell
    /// quietly. Nil when every byte arrived.
    func checkOutput(of command: String) -> LineStatus? {
        output.flush()
        guard let failure = output.writeFailure else { return nil }
        if failure == EPIPE {
            outputClosed = true
            return .quit
        }
        output.clearWriteFailure()
        report("\(command): cannot write to standard output: \(String(cString: strerror(failure)))")
        return .failure
    }
}
