import Foundation
import TestSupport
import Testing

/// `help` taller than the screen goes through the pager at a prompt (`$PAGER`, else `less -FRX`), in a real
/// pty of 20 rows (expect); text that fits is printed as it is, and output that is not a terminal is never
/// paged (a pipe gets the whole text, the pager never runs).
@Suite(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: Expect.path),
    "needs the built mediashell binary and expect"), .tags(.process), .notInFastRun)
struct HelpPagerTerminalTests {
    let home: TemporaryFolder
    /// The overview's last words, which a pager quit on its first screen never shows.
    static let lastWords = "keeps a script going when that command"

    init() throws {
        home = try TemporaryFolder("msh-pty-pager")
    }

    /// `sh -c` starting the shell on a terminal of 80x20 with `environment` (and, after it, `redirect`).
    private func spawn(_ environment: String, redirect: String = "") -> String {
        """
        spawn -noecho sh -c "stty cols 80 rows 20; exec env \(environment) TERM=xterm LANG=C.UTF-8 \
        HOME='\(home.path)' XDG_STATE_HOME='\(home.path)/state' '\(ShellBinary.path)' --camera sim: \(redirect)"
        """
    }

    /// A pager that records what it was given in `pager.txt` and shows nothing.
    private var recordingPager: String { "PAGER='cat > \(home.path)/pager.txt'" }

    @Test func aLongHelpGoesThroughPagerAndAShortOneDoesNot() throws {
        let result = try Expect.run(
            """
            \(spawn(recordingPager))
            must {sim:/> $} 2
            send "help pwd\\r"
            must {Prints the current folder on the camera\\.\\r\\n[^>]*sim:/> $} 3
            send "help\\r"
            must {\\r\\nsim:/> $} 4
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
        let paged = try String(contentsOfFile: home.path + "/pager.txt", encoding: .utf8)
        #expect(paged.hasPrefix("session:\n"), "\(paged)")
        #expect(paged.contains(Self.lastWords), "the pager got the whole text")
        #expect(!paged.contains("usage: pwd"), "help pwd fits the screen and was not paged")
    }

    @Test func lessByDefaultAndQuittingItLeavesTheRestUnshown() throws {
        let log = home.path + "/transcript"
        let result = try Expect.run(
            """
            log_file -a -noappend {\(log)}
            \(spawn("-u PAGER PATH=/usr/bin:/bin"))
            must {sim:/> $} 2
            send "help\\r"
            must {\\n:} 3
            send "q"
            must {sim:/> $} 4
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: log)), as: UTF8.self)
        #expect(text.contains("session:"))
        #expect(!text.contains(Self.lastWords), "less showed its first screen only")
    }

    @Test func outputThatIsNotATerminalIsNeverPaged() throws {
        let out = home.path + "/out.txt"
        let result = try Expect.run(
            """
            \(spawn(recordingPager, redirect: "| cat > '\(out)'"))
            send "help\\r"
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.hasPrefix("session:\n") && text.contains(Self.lastWords), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: home.path + "/pager.txt"), "the pager ran")
    }
}
