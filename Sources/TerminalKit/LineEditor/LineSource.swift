/// What reading one line gave.
public enum LineInput: Sendable, Hashable {
    /// A line, without its newline.
    case line(String)
    /// Ctrl-C arrived while reading: the partial line is gone.
    case interrupted
    /// Ctrl-D on an empty line, or the end of a script or pipe.
    case endOfInput
    /// The input cannot be read on (a read error, or a line longer than the reader accepts).
    case failed(String)
}

/// Where the shell's lines come from: the line editor at a terminal, or plain lines from a script or pipe.
public protocol LineSource: AnyObject {
    /// Blocks until a line, an interruption or the end of the input.
    func readLine() -> LineInput
}
