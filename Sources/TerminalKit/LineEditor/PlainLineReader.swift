import POSIX
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads lines from a file descriptor with no prompt and no editing: for scripts, pipes and `source`.
///
/// A trailing `\r` is dropped (scripts written on Windows); invalid UTF-8 becomes U+FFFD.
public final class PlainLineReader: LineSource {
    /// Lines longer than this are reported as a failure instead of filling memory.
    public static let maximumLineLength = 1 << 20

    private let descriptor: Int32
    private let closesDescriptor: Bool
    private let interrupt: Interrupt?
    private var buffer: [UInt8] = []
    private var start = 0
    private var reachedEnd = false
    /// The number of the line last returned, counting from 1 (for `FILE:LINE:` messages).
    public private(set) var lineNumber = 0

    /// Reads `descriptor` (standard input by default); `interrupt` turns a Ctrl-C during a read into
    /// `.interrupted`. With `closesDescriptor`, the descriptor is closed when the reader goes away.
    public init(fileDescriptor descriptor: Int32 = 0, closesDescriptor: Bool = false, interrupt: Interrupt? = nil) {
        self.descriptor = descriptor
        self.closesDescriptor = closesDescriptor
        self.interrupt = interrupt
    }

    /// Opens the file at `path` for reading.
    public convenience init(path: String, interrupt: Interrupt? = nil) throws(SystemError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 { throw SystemError(.open, path: SafeText.display(path), errno: errno) }
        self.init(fileDescriptor: descriptor, closesDescriptor: true, interrupt: interrupt)
    }

    deinit {
        if closesDescriptor { close(descriptor) }
    }

    public func readLine() -> LineInput {
        var searchFrom = start
        while true {
            if let newline = buffer[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) {
                if newline - start <= Self.maximumLineLength { return take(upTo: newline, consuming: newline + 1) }
                start = newline + 1
                lineNumber += 1
                return .failed("line \(lineNumber) is longer than \(Self.maximumLineLength) bytes")
            }
            if buffer.count - start > Self.maximumLineLength {
                lineNumber += 1
                skipRestOfLine()
                return .failed("line \(lineNumber) is longer than \(Self.maximumLineLength) bytes")
            }
            if reachedEnd {
                return start < buffer.count ? take(upTo: buffer.count, consuming: buffer.count) : .endOfInput
            }
            searchFrom = buffer.count
            switch fill() {
            case .some(let problem): return problem
            case .none: continue
            }
        }
    }

    private func take(upTo end: Int, consuming next: Int) -> LineInput {
        var lineEnd = end
        if lineEnd > start, buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
        let line = String(decoding: buffer[start..<lineEnd], as: UTF8.self)
        start = next
        if start > 65_536 && start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        lineNumber += 1
        return .line(line)
    }

    /// Reads more bytes; returns a result to hand back when reading cannot go on.
    private func fill() -> LineInput? {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return nil
            }
            if count == 0 {
                reachedEnd = true
                return nil
            }
            let error = errno
            if error == EINTR {
                if interrupt?.isPending == true { return .interrupted }
                continue
            }
            reachedEnd = true
            return .failed(SystemError(.read, errno: error).description)
        }
    }

    private func skipRestOfLine() {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                start = newline + 1
                return
            }
            buffer.removeAll(keepingCapacity: true)
            start = 0
            if reachedEnd || fill() != nil { return }
        }
    }
}
