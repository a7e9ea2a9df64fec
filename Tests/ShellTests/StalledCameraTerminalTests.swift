import Foundation
import TestSupport
import Testing

/// Ctrl-C while the camera hangs (issue 10): `mediashell serve --quirks stall-open|stall-listing` on a
/// runtime port never answers GetDeviceInfo, or the listing below the root; the shell, driven through a
/// pty by expect, is interrupted there and comes back (to its prompt, or exits 130) long before the 300 s
/// it would otherwise wait for the device. Each wait is bounded by expect's 20 s timeout; the server says
/// in its log when it left a request unanswered, so Ctrl-C is sent while the shell really waits.
@Suite(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: Expect.path),
    "needs the built mediashell binary and expect"), .tags(.process, .port), .notInFastRun)
struct StalledCameraTerminalTests {
    let home: TemporaryFolder
    let card: TemporaryFolder

    init() throws {
        home = try TemporaryFolder("msh-stall")
        card = try makeCardFolder(bigFileSize: 10_000)
    }

    /// Starts `serve --quirks QUIRK` and sets `port`; `serve` is its spawn id.
    private func serve(_ quirk: String) -> String {
        """
        spawn -noecho {\(ShellBinary.path)} serve --listen 127.0.0.1:0 --quirks \(quirk) {\(card.path)}
        set serve $spawn_id
        expect {
            -re {ptpip:127\\.0\\.0\\.1:([0-9]+)} { set port $expect_out(1,string) }
            timeout { puts "serve did not start"; exit 90 }
        }
        """
    }

    private func shell(_ arguments: String) -> String {
        "spawn -noecho env TERM=xterm LANG=C.UTF-8 HOME=\(home.path) XDG_STATE_HOME=\(home.path)/state "
            + "XDG_CONFIG_HOME=\(home.path)/config {\(ShellBinary.path)} \(arguments)\nset shell $spawn_id"
    }

    /// Waits for the server's word that it left `operation` unanswered (step `code` fails otherwise).
    private func stalled(_ operation: String, step code: Int) -> String {
        """
        expect {
            -i $serve -re {\(operation) left unanswered} {}
            timeout { puts "step \(code): the server never stalled"; exit \(code) }
        }
        """
    }

    /// Stops the server and checks the shell's exit status.
    private let finish = """
        exec kill -INT [exp_pid -i $serve]
        exit 0
        """

    @Test(arguments: [("stall-open", "GetDeviceInfo"), ("stall-listing", "GetObjectPropList")])
    func ctrlCWhileOpeningReturnsToThePrompt(quirk: String, operation: String) throws {
        let result = try Expect.run(
            """
            \(serve(quirk))
            \(shell("--camera sim:"))
            must {sim:/> $} 2
            send "set timeout 300\\r"
            must {> $} 3
            send "open ptpip:127.0.0.1:$port\\r"
            \(stalled(operation, step: 4))
            send -i $shell "\\003"
            must {open: interrupted} 5
            must {> $} 6
            send "lpwd\\r"
            must {\\r\\n/[^\\r\\n]*\\r\\n} 7
            must {> $} 8
            send "quit\\r"
            expect eof
            lassign [wait] pid spawnid oserror status
            if {$status != 0} { puts "quit left with status $status"; exit 9 }
            \(finish)
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
    }

    @Test func ctrlCDuringAScriptsListingExits130() throws {
        let result = try Expect.run(
            """
            \(serve("stall-listing"))
            \(shell("--camera ptpip:127.0.0.1:$port -c ls"))
            \(stalled("GetObjectPropList", step: 2))
            send -i $shell "\\003"
            must {interrupted; the camera was not answering} 3
            expect eof
            lassign [wait] pid spawnid oserror status
            if {$status != 130} { puts "the script left with status $status"; exit 4 }
            \(finish)
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
    }
}
