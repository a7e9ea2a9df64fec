import Foundation
import POSIX
import Testing

@testable import TerminalKit

@Suite struct LineReaderTests {
    /// A reader over a file that holds `bytes` (unlinked at once; the descriptor keeps it).
    private func reader(_ bytes: [UInt8]) throws -> PlainLineReader {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("msh-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        return try PlainLineReader(path: path)
    }

    private func readAll(_ reader: PlainLineReader) -> [LineInput] {
        var inputs: [LineInput] = []
        while true {
            let input = reader.readLine()
            inputs.append(input)
            if case .line = input { continue }
            return inputs
        }
    }

    @Test func readsLinesAndCountsThem() throws {
        let reader = try reader(Array("ls\r\nfetch 'a b'\n\n# comment\nlast".utf8))
        #expect(readAll(reader) == [.line("ls"), .line("fetch 'a b'"), .line(""), .line("# comment"), .line("last"), .endOfInput])
        #expect(reader.lineNumber == 5)
    }

    @Test func emptyInputEndsAtOnce() throws {
        #expect(readAll(try reader([])) == [.endOfInput])
    }

    @Test func invalidUTF8AndNULAreKept() throws {
        let inputs = readAll(try reader([0x66, 0xFF, 0x00, 0x67, 0x0A]))
        #expect(inputs == [.line("f\u{FFFD}\u{0}g"), .endOfInput])
    }

    @Test func longLinesAcrossManyReads() throws {
        let long = String(repeating: "x", count: 200_000)
        let inputs = readAll(try reader(Array("\(long)\nshort\n".utf8)))
        #expect(inputs == [.line(long), .line("short"), .endOfInput])
    }

    @Test func overlongLinesFailWithoutFillingMemory() throws {
        let huge = [UInt8](repeating: 0x61, count: PlainLineReader.maximumLineLength + 10) + Array("\nnext\n".utf8)
        let reader = try reader(huge)
        guard case .failed(let message) = reader.readLine() else {
            Issue.record("expected a failure")
            return
        }
        #expect(message.contains("line 1"))
        #expect(reader.readLine() == .line("next"))
        #expect(reader.lineNumber == 2)
    }

    @Test func opensFilesAndReportsMissingOnes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("msh-\(UUID().uuidString).msh").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("pwd\nls\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(readAll(try PlainLineReader(path: path)) == [.line("pwd"), .line("ls"), .endOfInput])
        #expect(throws: SystemError.self) { try PlainLineReader(path: path + ".missing") }
    }

    @Test func historyLocationFollowsXDG() {
        #expect(HistoryLocation.path(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/mediashell/history")
        #expect(HistoryLocation.path(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"]) == "/h/.local/state/mediashell/history")
        #expect(HistoryLocation.path(environment: ["HOME": "/h"]) == "/h/.local/state/mediashell/history")
        #expect(HistoryLocation.path(environment: ["HOME": "/"]) == "/.local/state/mediashell/history")
        #expect(HistoryLocation.path(environment: [:]) == nil)
    }

    @Test func interruptFlagIsSetBySIGINTAndCleared() throws {
        let interrupt = try Interrupt.install()
        interrupt.clear()
        #expect(!interrupt.isPending)
        raise(SIGINT)
        #expect(interrupt.isPending)
        #expect(throws: Interrupted.self) { try interrupt.check() }
        var descriptor = pollfd(fd: interrupt.pollDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 0) == 1)
        interrupt.clear()
        #expect(!interrupt.isPending)
        #expect(poll(&descriptor, 1, 0) == 0)
    }
}
