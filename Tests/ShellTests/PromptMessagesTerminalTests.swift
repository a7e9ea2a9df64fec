import Foundation
import TestSupport
import Testing

import TerminalKit

/// Messages at a prompt read as a person there needs them, in a real pty of 50 columns (expect): an error
/// in a line just typed names no column, long lines (the banner, errors) break between words within the
/// terminal's width rather than where the terminal cuts them, and Ctrl-C ending `events` leaves the next
/// prompt on a line of its own. The pty's whole output is kept (`log_file`) and checked after the session.
@Suite(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: Expect.path),
    "needs the built mediashell binary and expect"), .tags(.process), .notInFastRun)
struct PromptMessagesTerminalTests {
    let home: TemporaryFolder
    static let columns = 50

    init() throws {
        home = try TemporaryFolder("msh-pty-messages")
    }

    private func spawn(_ arguments: String, transcript: String) -> String {
        """
        log_file -a -noappend {\(transcript)}
        spawn -noecho sh -c "stty cols \(Self.columns) rows 30; exec env TERM=xterm LANG=C.UTF-8 \
        HOME='\(home.path)' XDG_STATE_HOME='\(home.path)/state' '\(ShellBinary.path)' \(arguments)"
        """
    }

    @Test func errorsNameNoColumnLongLinesBreakBetweenWordsAndEventsEndsItsLine() throws {
        let log = home.path + "/transcript"
        let result = try Expect.run(
            """
            \(spawn("--camera sim:", transcript: log))
            must {sim:/> $} 2
            send "pwd; bogus\\r"
            must {\\r\\nerror: unknown command 'bogus' \\(try 'help'\\)\\r\\n} 3
            must {sim:/> $} 4
            send "mode shoot\\r"
            must {sim:/[^\\r\\n]*> $} 5
            send "mode download\\r"
            must {sim:/> $} 10
            send "play DCIM/100MEDIA/DJI_0001.JPG\\r"
            must {MOV files\\)\\r\\n[^\\r\\n]*sim:/> $} 6
            send "pwd\\r"
            must {sim:/> $} 7
            send "events\\r"
            must {waiting for the camera's events[^\\r\\n]*\\r\\n} 8
            send "\\003"
            must {events: ended\\r\\n[^\\r\\n]*sim:/> $} 9
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")

        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: log)), as: UTF8.self)
        let lines = try Expect.transcriptLines(at: log)
        let wide = lines.filter { TerminalWidth.of($0) > Self.columns }
        #expect(wide.isEmpty, "lines wider than the terminal: \(wide)")
        #expect(!text.contains("column"), "a line just typed gets no column number")
        // Broken between words: the words of the banner and of the error each stay whole on a line.
        #expect(lines.contains { $0.contains("Ctrl-D quits") })
        #expect(lines.contains { $0.hasPrefix("mode shoot: the camera's files") })
        let error = lines.drop { !$0.hasPrefix("error: play:") }.prefix { !$0.contains("> ") }
        #expect(error.joined(separator: " ") == "error: play: DJI_0001.JPG is not a video (play takes MP4 and MOV files)",
            "\(Array(error))")
    }
}
