import Foundation
import PTPIP
import TestSupport
import Testing
import VirtualCamera

@testable import Shell

/// `liveview` at a prompt in a real pty (issue 42): the built binary against the `canon-eos` persona served
/// in-process on loopback draws each frame in the place of the last (the cursor goes back up over the picture
/// and its status line), shows the rate under it, and stops at a key, with the prompt back and the terminal
/// in its line mode (the next command is typed and echoed as usual).
@Suite(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: Expect.path),
    "needs the built mediashell binary and expect"))
struct LiveViewTerminalTests {
    @Test func framesAreDrawnInPlaceUntilAKey() throws {
        let card = try makeCardFolder(bigFileSize: 1_000)
        let camera = VirtualCamera(card: try Card(folder: card.path), persona: .named(.canonEOS))
        let server = PTPIPServer(host: "127.0.0.1", port: 0) { connection, peer in camera.serve(connection, peer: peer.address) }
        try server.start()
        defer { server.stop() }
        let home = try TemporaryFolder("msh-pty-live")
        let log = home.path + "/transcript"
        let result = try Expect.run(
            """
            log_file -a -noappend {\(log)}
            spawn -noecho sh -c "stty cols 100 rows 30; exec env TERM=xterm COLORTERM=truecolor LANG=C.UTF-8 \
            HOME='\(home.path)' XDG_STATE_HOME='\(home.path)/state' '\(ShellBinary.path)' --camera ptpip:127.0.0.1:\(server.port)"
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
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: log)), as: UTF8.self)
        // A 4:3 frame in 100 columns and 28 rows: 28 rows high; going back over it and its status line is 29 up.
        let redraws = text.components(separatedBy: "\u{1B}[29A").count - 1
        #expect(redraws >= 5, "each frame after the first drawn over the last: \(redraws)")
        #expect(!text.contains("xpwd"), "the key that stopped it was read, not left for the prompt")
    }
}
