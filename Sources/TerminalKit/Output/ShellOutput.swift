#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import POSIX

/// Where the interpreter writes: results on standard output, errors and progress on standard error.
public protocol ShellOutput: AnyObject {
    /// Writes text to standard output (lines end in `\n`; the text is already safe to print).
    func write(_ text: String)
    /// Writes `line` and a newline to standard output.
    func line(_ line: String)
    /// Writes one line to standard error (broken between words to fit a terminal that says its width).
    func error(_ line: String)
    /// Writes a message (a sentence, not data) and a newline to standard output, broken between words to
    /// fit a terminal, which would otherwise cut it wherever its margin falls.
    func note(_ line: String)
    /// Where a progress line is drawn (standard error on a terminal), or nil when it must stay quiet.
    var progress: ((String) -> Void)? { get }
    /// The terminal's width when standard output is a terminal (for columns), nil otherwise.
    var terminalColumns: Int? { get }
    /// The terminal's height when standard output is a terminal (text taller goes through a pager at a
    /// prompt), nil otherwise.
    var terminalRows: Int? { get }
    /// The size of a character cell in pixels, when standard output is a terminal that says (pictures drawn
    /// with a graphics protocol are sized by it), nil otherwise.
    var terminalCellPixels: (width: Int, height: Int)? { get }
    /// Sends buffered output on.
    func flush()
    /// The errno of the first write to standard output that failed since the last `clearWriteFailure()`
    /// (ENOSPC on a full disk, EPIPE when the reader went away), nil while every write arrived.
    var writeFailure: Int32? { get }
    /// Forgets a write failure once it was reported.
    func clearWriteFailure()
}

extension ShellOutput {
    public var writeFailure: Int32? { nil }
    public var terminalRows: Int? { nil }
    public var terminalCellPixels: (width: Int, height: Int)? { nil }
    public func clearWriteFailure() {}

    /// Writes `line` and a newline to standard output.
    public func line(_ line: String) { write(line + "\n") }

    public func note(_ line: String) { self.line(line) }
}

/// The process's standard output (buffered, flushed before every error, prompt and exit) and error.
public final class StandardOutput: ShellOutput {
    private var buffer: [UInt8] = []
    public private(set) var writeFailure: Int32?
    private let showsProgress: Bool
    private let width: () -> Int

    /// - Parameters:
    ///   - showsProgress: true in an interactive session on a terminal.
    ///   - width: the terminal width, asked whenever it is needed (it may change).
    public init(showsProgress: Bool, width: @escaping () -> Int = { 80 }) {
        self.showsProgress = showsProgress && isatty(2) == 1
        self.width = width
        buffer.reserveCapacity(1 << 16)
    }

    deinit { flush() }

    public func write(_ text: String) {
        // Once a write failed, the rest of the command's output has nowhere to go: drop it cheaply.
        guard writeFailure == nil else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 || outputIsTerminal { flush() }
    }

    /// `write(line + "\n")` without making that string: `ls` of 100,000 names writes as many lines.
    public func line(_ line: String) {
        guard writeFailure == nil else { return }
        buffer.append(contentsOf: line.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 || outputIsTerminal { flush() }
    }

    public func error(_ line: String) {
        flush()
        let lines = Terminal.columns(of: 2).map { WordWrap.lines(line, width: $0) } ?? [line]
        Self.writeAll(2, Array((lines.joined(separator: "\n") + "\n").utf8))
    }

    public func note(_ line: String) {
        guard outputIsTerminal, let width = Terminal.columns(of: 1) else { return self.line(line) }
        for part in WordWrap.lines(line, width: width) { self.line(part) }
    }

    public var progress: ((String) -> Void)? {
        guard showsProgress else { return nil }
        return { [weak self] text in
            self?.flush()
            Self.writeAll(2, Array(text.utf8))
        }
    }

    public var terminalColumns: Int? { outputIsTerminal ? width() : nil }

    public var terminalRows: Int? { outputIsTerminal ? Terminal.rows(of: 1) : nil }

    public var terminalCellPixels: (width: Int, height: Int)? { outputIsTerminal ? Terminal.cellPixels(of: 1) : nil }

    public func flush() {
        guard !buffer.isEmpty else { return }
        if let failure = Self.writeAll(1, buffer), writeFailure == nil { writeFailure = failure }
        buffer.removeAll(keepingCapacity: true)
    }

    public func clearWriteFailure() { writeFailure = nil }

    private lazy var outputIsTerminal = isatty(1) == 1

    /// Writes every byte; returns the errno of a write that failed (EIO for one that wrote nothing).
    @discardableResult
    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32? {
        do throws(SystemError) {
            try POSIX.writeAll(descriptor, bytes)
            return nil
        } catch {
            return error.errno
        }
    }
}

