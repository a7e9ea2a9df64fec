import Foundation
import TestSupport
import Testing

@testable import Shell
@testable import TerminalKit

/// Thumbnails from the built `mediashell`: drawn in a real pty (expect, 100 columns) with 24-bit half blocks
/// or a forced kitty protocol, Ctrl-C in a long contact sheet, and nothing but text when output is a pipe.
/// The pty's whole output is kept (`log_file`) and checked here after the session.
@Suite(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: Expect.path),
    "needs the built mediashell binary and expect"), .tags(.process), .notInFastRun)
struct ThumbnailTerminalTests {
    let home: TemporaryFolder

    init() throws {
        home = try TemporaryFolder("msh-pty-thumb")
        // libedit puts the terminal back in its own cooked mode after each line, and that mode clears
        // `noflsh` (below) whatever stty said: this ~/.editrc keeps it set while a command runs.
        _ = try home.write(".editrc", text: "setty -x +noflsh\n")
    }

    /// Starts the shell on a 100x40 pty with a 24-bit colour xterm, logging everything it prints.
    /// `noflsh`: on Ctrl-C the pty would otherwise throw away the output still queued in it (whatever the
    /// shell wrote that expect had not read yet, a part of an escape sequence included), and the transcript
    /// would show the kernel's cut, not the shell's (it did, in about one run in six under load, until the
    /// ~/.editrc of `init` kept the flag through libedit's mode changes).
    private func spawn(_ arguments: String, transcript: String) -> String {
        """
        log_file -a -noappend {\(transcript)}
        spawn -noecho sh -c "stty cols 100 rows 40 noflsh; exec env TERM=xterm COLORTERM=truecolor LANG=C.UTF-8 \
        HOME='\(home.path)' XDG_STATE_HOME='\(home.path)/state' '\(ShellBinary.path)' \(arguments)"
        """
    }

    private func transcript(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    @Test func thumbOnTheDemoCardDrawsHalfBlocksOrAForcedProtocol() throws {
        let log = home.path + "/transcript"
        let result = try Expect.run(
            """
            \(spawn("--camera sim:", transcript: log))
            must {sim:/> $} 2
            send "cd DCIM/100MEDIA; thumb DJI_0001.JPG DJI_0002.JPG DJI_0003.MP4 DJI_0004.JPG\\r"
            must {DJI_0004\\.JPG\\r\\n[^\\r\\n]*100MEDIA> $} 3
            send "set images kitty; thumb DJI_0001.JPG\\r"
            must {\\x1b_Ga=T,f=24,} 4
            must {DJI_0001\\.JPG\\r\\n[^\\r\\n]*100MEDIA> $} 5
            send "set images off; thumb DJI_0001.JPG\\r"
            must {\\r\\nDJI_0001\\.JPG: thumbnail 160x120, [0-9.]+ kB\\r\\n} 6
            must {100MEDIA> $} 7
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")

        let text = try transcript(log)
        let blocks = try #require(text.range(of: "thumb DJI_0001.JPG DJI_0002.JPG").map { text[$0.upperBound...] })
        let drawn = blocks[..<(blocks.range(of: "set images kitty")?.lowerBound ?? blocks.endIndex)]
        let lines = drawn.components(separatedBy: "\r\n")
        let pictureLines = lines.filter { halfBlocks($0) > 0 }
        // Three tiles of at least 24 columns fit in 100, widened to fill it: 32 each, 2 apart; a 160x120
        // thumbnail in 32 columns is 24 half-block pixels high, 12 rows.
        #expect(pictureLines.count == 12 + 12, "two rows of 12 character rows")
        let uncoloured = pictureLines.filter { !$0.contains("\u{1B}[38;2;") || !$0.contains("48;2;") }
        #expect(uncoloured.isEmpty, "\(uncoloured.map { $0.debugDescription })")
        #expect(pictureLines.map { halfBlocks($0) }.max() == 3 * 32, "three 32-column tiles to a row in 100 columns")
        #expect(lines.allSatisfy { TerminalWidth.of(strippingEscapes($0)) <= 100 })
        #expect(lines.contains { strippingEscapes($0) == nameRow(["DJI_0001.JPG", "DJI_0002.JPG", "DJI_0003.MP4"], tile: 32) })
    }

    @Test func ctrlCStopsALongContactSheetAndThePromptComesBack() throws {
        let card = try TemporaryFolder("msh-pty-many")
        for index in 1...2000 {
            try card.write(String(format: "DCIM/100MEDIA/IMG_%04d.JPG", index), patternBytes(300, seed: UInt64(index)))
        }
        let log = home.path + "/transcript"
        let result = try Expect.run(
            """
            \(spawn("--camera 'dir:\(card.path)'", transcript: log))
            must {dir:/> $} 2
            send "cd DCIM/100MEDIA; set images blocks; ls --thumbs\\r"
            must {IMG_0005\\.JPG} 3
            send "\\003"
            must {ls: interrupted\\r\\n} 4
            must {dir:/DCIM/100MEDIA> $} 5
            send "pwd\\r"
            must {\\r\\n/DCIM/100MEDIA\\r\\n} 6
            must {> $} 7
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")

        let text = try transcript(log)
        let start = try #require(text.range(of: "ls --thumbs")?.upperBound)
        let end = try #require(text.range(of: "ls: interrupted")?.lowerBound)
        // The terminal echoes Ctrl-C as "^C" wherever its output stream is at that moment, even inside an
        // escape sequence the shell is writing: it is the pty's, not the shell's, so it is taken out.
        let sheet = Substring(String(text[start..<end]).replacingOccurrences(of: "^C", with: ""))
        #expect(sheet.hasSuffix("\r\n"), "the interruption comes after a whole row: \(sheet.suffix(300).debugDescription)")
        #expect(!strippingEscapes(String(sheet)).contains("\u{1B}"), "no escape sequence left half-written")
        #expect(!sheet.contains("IMG_2000.JPG"), "stopped long before the end")
    }

    @Test func batchModePrintsNothingButText() throws {
        // Even in a kitty terminal's environment: output is a pipe.
        let environment = ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1", "COLORTERM": "truecolor"]
        let script = "cd DCIM/100MEDIA; thumb DJI_0001.JPG DJI_0003.MP4; ls --thumbs DJI_0004*; info DJI_0001.JPG"
        for (arguments, input) in [(["--camera", "sim:", "-c", script], ""), (["--camera", "sim:"], script + "\n")] {
            let result = try ShellBinary.run(arguments, input: input, environment: environment)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(!result.standardOutput.contains("\u{1B}") && !result.standardOutput.contains("\u{2580}"))
            let lines = result.outputLines
            #expect(lines.count >= 4, "\(lines)")
            #expect(lines[0].hasPrefix("DJI_0001.JPG: thumbnail 160x120, "))
            #expect(lines[1].hasPrefix("DJI_0003.MP4: thumbnail 160x90, "))
            #expect(lines[2].hasPrefix("DJI_0004.JPG: thumbnail 160x120, "))
            #expect(lines[3].hasPrefix("name:"))
        }
    }
}
