import Foundation
import TestSupport
import Testing

@testable import Shell

/// `liveview` at a prompt in a real pty (issue 42): the built binary against `serve --persona canon-eos` on
/// loopback draws each frame in the place of the last (the cursor goes back up over the picture
/// and its status line), shows the rate under it, and stops at a key, with the prompt back and the terminal
/// in its line mode (the next command is typed and echoed as usual).
@Suite(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: Expect.path),
    "needs the built mediashell binary and expect"), .tags(.process, .port), .notInFastRun)
struct LiveViewTerminalTests {
    @Test func framesAreDrawnInPlaceUntilAKey() throws {
        let card = try makeCardFolder(bigFileSize: 1_000)
        let home = try TemporaryFolder("msh-pty-live")
        let log = home.path + "/transcript"
        // The persona is a `serve` process of its own, not a thread of this busy test process: under the whole
        // suite a thread here could wait seconds for a turn, longer than a camera's silence is allowed.
        let result = try Expect.run(
            """
            spawn -noecho {\(ShellBinary.path)} serve --listen 127.0.0.1:0 --persona canon-eos {\(card.path)}
            set serve $spawn_id
            expect {
                -re {ptpip:127\\.0\\.0\\.1:([0-9]+)} { set port $expect_out(1,string) }
                timeout { puts "serve did not start"; exit 1 }
            }
            log_file -a -noappend {\(log)}
            spawn -noecho sh -c "stty cols 100 rows 30; exec env TERM=xterm COLORTERM=truecolor LANG=C.UTF-8 \
            HOME='\(home.path)' XDG_STATE_HOME='\(home.path)/state' '\(ShellBinary.path)' --camera ptpip:127.0.0.1:$port"
            must {:/> $} 2
            send "set images blocks; liveview\\r"
            must {live view +[0-9.]+ fps +frame 6 +\\(a key stops\\)} 3
            send "x"
            must {liveview: [0-9]+ frames in [0-9.]+ s \\([0-9.]+ fps\\)\\r\\n} 4
            must {:/> $} 5
            send "pwd\\r"
            must {pwd\\r\\n/\\r\\n} 6
            must {:/> $} 7
            send "\\004"
            expect eof
            exec kill [exp_pid -i $serve]
            exit 0
            """)
        let text = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: log))) ?? Data(), as: UTF8.self)
        #expect(result.status == 0, "expect failed: \(result.standardOutput) \(result.standardError); the pty's last lines: \(strippingEscapes(String(text.suffix(600))).debugDescription)")
        // A 4:3 frame in 100 columns and 28 rows: 28 rows high; going back over it and its status line is 29 up.
        let redraws = text.components(separatedBy: "\u{1B}[29A").count - 1
        #expect(redraws >= 5, "each frame after the first drawn over the last: \(redraws)")
        #expect(!text.contains("xpwd"), "the key that stopped it was read, not left for the prompt")
    }
}
