import CEditLine
import Foundation
import POSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The interactive prompt over libedit: Emacs keys, history kept in a file, Tab completion,
/// Ctrl-C discarding the line, Ctrl-D ending the input, and window resizing.
///
/// Use it only when `Terminal.isInteractive`; otherwise read with `PlainLineReader`.
/// This is the only Swift file that calls libedit.
public final class LineEditor: LineSource {
    /// Given the line and the cursor (a UTF-8 byte offset), what Tab does.
    public typealias Completer = (_ line: String, _ cursor: Int) -> CompletionResult

    /// More candidates than this are counted rather than listed.
    public var listLimit = 300

    private let editLine: OpaquePointer
    private let history: OpaquePointer
    private var event = HistEvent()
    private let historyWriter: HistoryFileWriter?
    private let prompt: () -> String
    private let completer: Completer?
    private let interrupt: Interrupt
    private var promptStorage: UnsafeMutablePointer<CChar>?
    /// A byte read ahead while decoding UTF-8, to hand out next.
    private var pushedBack: UInt8?

    /// - Parameters:
    ///   - historyFile: where history is loaded from and saved to (mode 0600), nil to keep none;
    ///     usually `HistoryLocation.path(environment:)`.
    ///   - historySize: how many entries are kept; consecutive repeats are stored once.
    ///   - prompt: asked before each line, so it can show the session state.
    ///   - completer: what Tab does; nil leaves Tab inserting nothing.
    public init(
        programName: String = "mediashell", historyFile: String?, historySize: Int = 1000,
        interrupt: Interrupt, prompt: @escaping () -> String, completer: Completer?
    ) throws(SystemError) {
        Self.useUTF8Locale()
        guard let editLine = msh_el_init(programName) else { throw SystemError("el_init", errno: errno) }
        guard let history = history_init() else {
            el_end(editLine)
            throw SystemError("history_init", errno: errno)
        }
        self.editLine = editLine
        self.history = history
        self.historyWriter = historyFile.map(HistoryFileWriter.init(path:))
        self.prompt = prompt
        self.completer = completer
        self.interrupt = interrupt

        _ = msh_history_set_size(history, &event, Int32(clamping: max(1, historySize)))
        _ = msh_history_set_unique(history, &event, 1)
        if let historyFile { _ = msh_history_load(history, &event, historyFile) }

        _ = msh_el_set_client_data(editLine, Unmanaged.passUnretained(self).toOpaque())
        _ = msh_el_set_editor(editLine, "emacs")
        _ = msh_el_set_signal(editLine, 1)
        _ = msh_el_set_history(editLine, history)
        _ = msh_el_set_prompt(editLine) { editLine in
            guard let editor = LineEditor.owner(of: editLine) else { return nil }
            return editor.promptText()
        }
        _ = msh_el_set_read_function(editLine) { editLine, character in
            guard let editor = LineEditor.owner(of: editLine), let character else { return -1 }
            return editor.readCharacter(into: character)
        }
        _ = msh_el_add_function(editLine, "mediashell-complete", "complete the word at the cursor") { editLine, _ in
            guard let editor = LineEditor.owner(of: editLine) else { return UInt8(CC_ERROR) }
            return editor.completeAtCursor()
        }
        _ = msh_el_bind(editLine, "^I", "mediashell-complete")
        // The user's ~/.editrc may add or change bindings.
        _ = el_source(editLine, nil)
    }

    deinit {
        historyWriter?.finish()
        el_end(editLine)
        history_end(history)
        free(promptStorage)
    }

    /// Shows the prompt and reads a line; non-blank lines are added to the history and the file is saved.
    public func readLine() -> LineInput {
        if Interrupt.takeResize() { el_resize(editLine) }
        Interrupt.unblockTerminalSignals()
        interrupt.clear()
        // Raw mode before the prompt is drawn: libedit draws it first, and keys typed in between were
        // echoed twice (by the terminal, then by the editor).
        _ = msh_el_prep_term(editLine, 1)
        var count: Int32 = 0
        guard let raw = el_gets(editLine, &count) else {
            let error = errno
            // A Ctrl-R search reads its keys itself and ends as if at end of input (count 0) when a read
            // fails, so an interrupted read there looks like Ctrl-D: the pending Ctrl-C says which it was.
            if interrupt.isPending || (count < 0 && error == EINTR) {
                interrupt.clear()
                writeOut("\n")
                return .interrupted
            }
            writeOut("\n")
            return count == 0 ? .endOfInput : .failed(SystemError("el_gets", errno: error).description)
        }
        var line = String(cString: raw)
        if line.hasSuffix("\n") { line.removeLast() }
        if line.contains(where: { !$0.isWhitespace }) {
            _ = msh_history_enter(history, &event, line)
            saveHistory()
        }
        return .line(line)
    }

    /// The history, oldest first (for the `history` command).
    public var historyEntries: [String] {
        var entries: [String] = []
        var status = msh_history_oldest(history, &event)
        while status == 0, let text = event.str {
            var entry = String(cString: text)
            if entry.hasSuffix("\n") { entry.removeLast() }
            entries.append(entry)
            status = msh_history_newer(history, &event)
        }
        return entries
    }

    /// The terminal's width in columns (80 when unknown), following resizes.
    public var terminalWidth: Int {
        if Interrupt.takeResize() { el_resize(editLine) }
        let columns = Int(msh_el_columns(editLine))
        return columns > 0 ? columns : 80
    }

    // MARK: - Callbacks from libedit

    private static func owner(of editLine: OpaquePointer?) -> LineEditor? {
        guard let editLine, let data = msh_el_client_data(editLine) else { return nil }
        return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
    }

    private func promptText() -> UnsafeMutablePointer<CChar>? {
        free(promptStorage)
        promptStorage = strdup(SafeText.display(prompt()))
        return promptStorage
    }

    /// libedit's read function: waits on standard input and the interrupt pipe, decodes one UTF-8 character.
    /// Returns 1 with a character, 0 at end of input, -1 with errno EINTR on Ctrl-C.
    private func readCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        guard let lead = pushedBack ?? nextByte() else { return interrupt.isPending ? -1 : 0 }
        pushedBack = nil
        if lead < 0x80 {
            character.pointee = wchar_t(lead)
            return 1
        }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        var bytes = [lead]
        while bytes.count < length {
            guard let next = nextByte() else { break }
            if next & 0xC0 != 0x80 {
                pushedBack = next
                break
            }
            bytes.append(next)
        }
        if interrupt.isPending {
            errno = EINTR
            return -1
        }
        let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
        character.pointee = wchar_t(bitPattern: scalar.value)
        return 1
    }

    /// One byte of standard input, or nil at its end or on Ctrl-C (errno EINTR then).
    private func nextByte() -> UInt8? {
        while true {
            if interrupt.isPending {
                errno = EINTR
                return nil
            }
            var descriptors = [
                pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                pollfd(fd: interrupt.pollDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR {
                    if Interrupt.takeResize() { el_resize(editLine) }
                    continue
                }
                return nil
            }
            if descriptors[1].revents != 0 && !interrupt.isPending { interrupt.clear() }
            guard descriptors[0].revents != 0 else { continue }
            var byte: UInt8 = 0
            let count = read(0, &byte, 1)
            if count == 1 { return byte }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            return nil
        }
    }

    /// The Tab key: asks the completer, edits the line, lists the candidates when Tab made no progress.
    private func completeAtCursor() -> UInt8 {
        guard let completer, let info = el_line(editLine)?.pointee, let buffer = info.buffer else {
            return UInt8(CC_ERROR)
        }
        let length = info.lastchar.map { $0 - buffer } ?? 0
        let cursor = info.cursor.map { $0 - buffer } ?? length
        let bytes = Array(UnsafeRawBufferPointer(start: buffer, count: max(0, length)))
        let line = String(decoding: bytes, as: UTF8.self)
        let result = completer(line, cursor)

        if result.changesLine {
            let lower = min(max(0, result.range.lowerBound), cursor)
            let replaced = bytes[lower..<cursor]
            var insertion = Substring(result.replacement)
            if result.replacement.utf8.starts(with: replaced) {
                insertion = Substring(String(decoding: result.replacement.utf8.dropFirst(replaced.count), as: UTF8.self))
            } else if !replaced.isEmpty {
                let characters = String(decoding: replaced, as: UTF8.self).unicodeScalars.count
                el_deletestr(editLine, Int32(characters))
            }
            if !insertion.isEmpty && el_insertstr(editLine, String(insertion)) != 0 { return UInt8(CC_ERROR) }
            return UInt8(CC_REFRESH)
        }
        guard !result.candidates.isEmpty else { return UInt8(CC_REFRESH_BEEP) }
        let width = terminalWidth
        var listing = newlinesBelowInput(bytes: bytes, cursor: cursor, width: width)
        if result.candidates.count > listLimit {
            listing += "(\(result.candidates.count) names match; type more of the name)\r\n"
        } else {
            for line in ColumnList.lines(result.candidates, width: width - 1) { listing += line + "\r\n" }
        }
        writeOut(listing)
        // Not CC_REDISPLAY: it moves up by the rows a wrapped line took and would erase the list.
        _ = msh_el_refresh(editLine)
        return UInt8(CC_NORM)
    }

    /// The line breaks that take the terminal cursor from within the input to the start of the row below it.
    private func newlinesBelowInput(bytes: [UInt8], cursor: Int, width: Int) -> String {
        let promptWidth = promptStorage.map { TerminalWidth.of(String(cString: $0)) } ?? 0
        let atCursor = promptWidth + TerminalWidth.of(String(decoding: bytes[..<cursor], as: UTF8.self))
        let atEnd = promptWidth + TerminalWidth.of(String(decoding: bytes, as: UTF8.self))
        let rowsBelow = max(0, atEnd / max(1, width) - atCursor / max(1, width))
        // A line that ends exactly at the margin already left the cursor at the start of the next row.
        let wrapped = atEnd > 0 && atEnd % max(1, width) == 0
        return String(repeating: "\r\n", count: rowsBelow + (wrapped ? 0 : 1))
    }

    // MARK: - History file and terminal

    /// Hands the history, as libedit writes its file, to `historyWriter`, which saves it off this thread
    /// (a rename on a filesystem that is syncing a download can wait for seconds).
    private func saveHistory() {
        guard let historyWriter else { return }
        let descriptor = msh_history_save_to_memory(history, &event)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let offset = off_t(bytes.count)
            guard let count = try? chunk.withUnsafeMutableBytes({ buffer throws(SystemError) in
                try systemCall(.read) { pread(descriptor, buffer.baseAddress, buffer.count, offset) }
            }) else { return }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        historyWriter.save(bytes)
    }

    /// Makes character handling UTF-8, as el_line's byte offsets and the terminal's bytes assume.
    private static func useUTF8Locale() {
        setlocale(LC_CTYPE, "")
        if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) == "UTF-8" { return }
        setlocale(LC_CTYPE, "C.UTF-8")
    }

    private func writeOut(_ text: String) {
        try? writeAll(1, Array(text.utf8))
    }
}
