import Foundation
import TestSupport
import Testing

/// The built `mediashell` driven through a real pty by `expect`, as a person at the keyboard would:
/// Tab completion of camera names, Ctrl-C during a large fetch and at the prompt, history across restarts,
/// a name with spaces, Ctrl-D. Every wait is bounded by expect's timeout, and each step that does not see
/// what it waits for exits with its own code (`brokenStepsFail` proves that a wrong pattern does fail).
@Suite(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: Expect.path),
    "needs the built mediashell binary and expect"), .tags(.process), .notInFastRun)
struct TerminalSessionTests {
    let home: TemporaryFolder

    init() throws {
        home = try TemporaryFolder("msh-pty")
    }

    private func spawn(_ arguments: String) -> String {
        "spawn -noecho env TERM=xterm LANG=C.UTF-8 HOME=\(home.path) XDG_STATE_HOME=\(home.path)/state "
            + "{\(ShellBinary.path)} \(arguments)"
    }

    @Test func tabCompletesCameraNamesAndCtrlCDiscardsTheLine() throws {
        let card = try makeCardFolder()
        let downloads = try TemporaryFolder("msh-pty-dl")
        let result = try Expect.run(
            """
            \(spawn("--camera {dir:\(card.path)} --download-dir {\(downloads.path)}"))
            must {dir:/> $} 2
            send "cd DC\\t"
            must {IM/$} 3
            send "\\r"
            must {dir:/DCIM> $} 4
            send "cd 10\\t"
            must {100MEDIA/ +101MEDIA/} 5
            send "0\\t"
            must {MEDIA/$} 6
            send "\\r"
            must {dir:/DCIM/100MEDIA> $} 26
            send "select DJI_0003.M\\t"
            must {P4 $} 7
            send "\\r"
            must {selected /DCIM/100MEDIA/DJI_0003\\.MP4} 8
            must {\\[DJI_0003\\.MP4\\]> $} 9
            send "fetch My\\t"
            must {\\\\ Clip\\\\ $} 10
            send "\\t"
            must {My Clip 1\\.MP4 +My Clip 2\\.MP4} 11
            must {> fetch My\\\\ Clip\\\\ $} 12
            send "\\025fetch Bir\\t"
            must {thday\\\\ Party\\.MP4 $} 13
            send "\\r"
            must {fetched Birthday Party\\.MP4 -> } 14
            must {> $} 15
            send "ls half typed"
            must {ls half typed$} 16
            send "\\003"
            must {\\r\\n[^\\r\\n]*dir:/DCIM/100MEDIA \\[DJI_0003\\.MP4\\]> $} 17
            send "pwd\\r"
            expect {
                -re {half typed|typedpwd} { puts "Ctrl-C kept the line"; exit 18 }
                -re {\\r\\n/DCIM/100MEDIA\\r\\n} {}
                timeout { exit 19 }
            }
            must {> $} 20
            send "\\004"
            expect eof
            lassign [wait] pid spawnid oserror status
            if {$status != 0} { puts "Ctrl-D left with status $status"; exit 21 }
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
        let same = downloads.read("Birthday Party.MP4") == card.read("DCIM/100MEDIA/Birthday Party.MP4")
        #expect(same, "the fetched file differs from the card's")
    }

    @Test func ctrlCStopsALargeFetchAndTheNextFetchFinishesIt() throws {
        let size = 24_000_000
        let card = try makeCardFolder(bigFileSize: size)
        let downloads = try TemporaryFolder("msh-pty-dl")
        let result = try Expect.run(
            """
            \(spawn("--camera {dir:\(card.path)} --download-dir {\(downloads.path)}"))
            must {dir:/> $} 2
            send "cd DCIM/100MEDIA; set limit-rate 4M\\r"
            must {dir:/DCIM/100MEDIA> $} 3
            send "fetch DJI_0003.MP4\\r"
            must {[1-9][0-9]?%  [0-9.]+ [kM]?B of 24\\.0 MB} 4
            send "\\003"
            must {fetch: interrupted: DJI_0003\\.MP4 stopped at [0-9.]+ [kM]?B of 24\\.0 MB} 5
            must {dir:/DCIM/100MEDIA \\[DJI_0003\\.MP4 @ [0-9.]+ [kM]?B\\]> $} 6
            send "offset\\r"
            must {DJI_0003\\.MP4: offset [1-9][0-9]* of 24000000 bytes} 7
            must {> $} 8
            send "set limit-rate off; fetch\\r"
            must {fetched DJI_0003\\.MP4 -> [^\\r\\n]*\\(24\\.0 MB, continued from [0-9.]+ [kM]?B\\)} 9
            must {dir:/DCIM/100MEDIA> $} 10
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
        let fetched = downloads.read("DJI_0003.MP4")
        #expect(fetched?.count == size)
        let same = fetched == card.read("DCIM/100MEDIA/DJI_0003.MP4")
        #expect(same, "the resumed download differs")
        #expect(!downloads.exists("DJI_0003.MP4.part"))
    }

    @Test func historySurvivesARestart() throws {
        let card = try makeCardFolder()
        let session = spawn("--camera {dir:\(card.path)}")
        let result = try Expect.run(
            """
            \(session)
            must {dir:/> $} 2
            send "cd DCIM/100MEDIA\\r"
            must {100MEDIA> $} 3
            send "select DJI_0001.JPG\\r"
            must {\\[DJI_0001\\.JPG\\]> $} 4
            send "\\004"
            expect eof
            \(session)
            must {dir:/> $} 5
            send "history\\r"
            must {1  cd DCIM/100MEDIA\\r\\n2  select DJI_0001\\.JPG\\r\\n3  history\\r\\n} 6
            must {> $} 7
            send "\\020\\020\\020"
            must {cd DCIM/100MEDIA(\\x1b\\[K)?$} 8
            send "\\r"
            must {dir:/DCIM/100MEDIA> $} 9
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
        let history = home.path + "/state/mediashell/history"
        let attributes = try FileManager.default.attributesOfItem(atPath: history)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    /// Ctrl-C inside a Ctrl-R history search leaves the search and the line, never the shell (libedit's
    /// search reads its keys itself and took the interrupted read for end of input); Ctrl-G leaves the
    /// search and gives back the line as it was.
    @Test func ctrlCAndCtrlGLeaveAHistorySearchAndTheShellStays() throws {
        let result = try Expect.run(
            """
            \(spawn("--camera sim:"))
            must {sim:/> $} 2
            send "pwd\\r"
            must {\\r\\n/\\r\\n} 3
            must {> $} 4
            send "\\022"
            must {bck:} 5
            send "pw"
            must {pwd} 6
            send "\\003"
            must {\\r\\n[^\\r\\n]*sim:/> $} 7
            send "storages\\r"
            must {\\r\\n00010001 [^\\r\\n]*read-write[^\\r\\n]*\\r\\n} 8
            must {> $} 9
            send "ls"
            send "\\022"
            must {bck:} 10
            send "pw"
            must {pwd} 11
            send "\\007"
            send " -1\\r"
            must {\\r\\nDCIM/\\r\\n} 12
            must {> $} 13
            send "\\004"
            expect eof
            lassign [wait] pid spawnid oserror status
            if {$status != 0} { puts "Ctrl-D left with status $status"; exit 14 }
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
    }

    /// `stop` unloads the video: the prompt, which showed it playing, shows only the selection, and
    /// `select --clear` leaves a bare prompt (it read `… DJI_0003.MP4 ■ 0:00.0/0:03>` after both).
    @Test func stopTakesThePlayedVideoOutOfThePrompt() throws {
        let result = try Expect.run(
            """
            \(spawn("--camera sim:"))
            must {sim:/> $} 2
            send "set player none; cd DCIM/100MEDIA; play DJI_0003.MP4\\r"
            must {playing DJI_0003\\.MP4 } 3
            must {sim:/DCIM/100MEDIA \\[DJI_0003\\.MP4\\] [^\\r\\n]+ 0:0[0-9.]+/0:03> $} 4
            send "stop\\r"
            must {stopped DJI_0003\\.MP4; 'play' starts it again\\r\\n} 5
            must {^sim:/DCIM/100MEDIA \\[DJI_0003\\.MP4\\]> $} 6
            send "select --clear\\r"
            must {\\r\\nsim:/DCIM/100MEDIA> $} 7
            send "play DJI_0003.MP4; select --clear\\r"
            must {\\r\\nsim:/DCIM/100MEDIA DJI_0003\\.MP4 [^\\r\\n]+/0:03> $} 8
            send "stop\\r"
            must {stopped DJI_0003\\.MP4; 'play DJI_0003\\.MP4' starts it again\\r\\n} 9
            must {^sim:/DCIM/100MEDIA> $} 10
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
    }

    @Test func brokenStepsFail() throws {
        let result = try Expect.run(
            """
            set timeout 30
            \(spawn("--camera sim:"))
            must {sim:/> $} 2
            send "pwd\\r"
            set timeout 1
            must {this never appears} 7
            exit 0
            """)
        #expect(result.status == 7, "a step waiting for what never comes must fail: \(result.standardOutput)")
        #expect(result.standardOutput.contains("step 7 timed out"))
    }
}

/// Runs an expect script (with a `must PATTERN CODE` step helper) and returns its exit status and output.
enum Expect {
    static let path = "/usr/bin/expect"

    /// Bytes pass through as they are (`encoding system iso8859-1`): read as UTF-8, a shell's stream of
    /// half-block pictures left the end of its output (the last frame, the prompt) in Tcl's channel buffer
    /// while expect waited for the pty to become readable again, and the step timed out with the bytes
    /// already read (liveview under load, about one run in 25). Every pattern and `send` here is ASCII;
    /// transcripts (`log_file`) keep the shell's bytes.
    static let preamble = #"""
        set timeout 20
        encoding system iso8859-1
        log_user 0
        proc must {pattern code} {
            expect {
                -re $pattern {}
                timeout { puts "step $code timed out"; exit $code }
                eof { puts "step $code: the shell ended"; exit [expr {$code + 100}] }
            }
        }

        """#

    /// The lines of a pty transcript (`log_file`) with the terminal's escapes taken out. A carriage return
    /// starts the row again (a progress line, a redrawn prompt): each part is a line.
    static func transcriptLines(at path: String) throws -> [String] {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        return text.components(separatedBy: "\r\n").flatMap { $0.components(separatedBy: "\r") }.map(strippingEscapes)
    }

    static func run(_ steps: String) throws -> ShellBinary.Result {
        let folder = try TemporaryFolder("msh-expect")
        let script = try folder.write("session.exp", text: preamble + steps + "\n")
        // In a session of its own: expect gives each spawned pty the window size of its controlling terminal,
        // pixel fields included, and `stty cols` keeps those, so a test run from a terminal (as CI's is) drew
        // pictures for that terminal's cells instead of the 10x20 a pty without pixel sizes means.
        let result = try ShellBinary.runProgram("/usr/bin/setsid", ["--wait", path, script], timeout: 120)
        #expect(!result.timedOut, "expect itself did not finish")
        return result
    }
}
