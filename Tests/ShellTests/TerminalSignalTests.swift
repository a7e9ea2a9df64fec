import Foundation
import TestSupport
import Testing

/// SIGHUP (the terminal closed) and SIGTERM at the prompt, through a real pty: a running fetch ends as on
/// Ctrl-C, the camera session is closed, the shell exits with 128 + the signal.
@Suite(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: Expect.path),
    "needs the built mediashell binary and expect"), .tags(.process), .notInFastRun)
struct TerminalSignalTests {
    @Test(arguments: [("HUP", 129), ("TERM", 143)])
    func aSignalDuringAFetchAtThePromptEndsItAndTheShell(signal: String, status: Int) throws {
        let home = try TemporaryFolder("msh-pty")
        let card = try makeCardFolder(bigFileSize: 24_000_000)
        let downloads = try TemporaryFolder("msh-pty-dl")
        let result = try Expect.run(
            """
            spawn -noecho env TERM=xterm LANG=C.UTF-8 HOME=\(home.path) XDG_STATE_HOME=\(home.path)/state \
            {\(ShellBinary.path)} --camera {dir:\(card.path)} --download-dir {\(downloads.path)}
            must {dir:/> $} 2
            send "cd DCIM/100MEDIA; set limit-rate 4M\\r"
            must {dir:/DCIM/100MEDIA> $} 3
            send "fetch DJI_0003.MP4\\r"
            must {[1-9][0-9]?%  [0-9.]+ [kM]?B of 24\\.0 MB} 4
            exec kill -\(signal) [exp_pid]
            must {fetch: interrupted: DJI_0003\\.MP4 stopped at [0-9.]+ [kM]?B of 24\\.0 MB} 5
            must {mediashell: SIG\(signal): the camera session is closed} 6
            expect eof
            lassign [wait] pid spawnid oserror code
            if {$code != \(status)} { puts "exit status $code"; exit 7 }
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
        let part = try #require(downloads.read("DJI_0003.MP4.part"))
        #expect(part.count > 0)
        #expect(part == Array(try #require(card.read("DCIM/100MEDIA/DJI_0003.MP4")).prefix(part.count)))
    }
}
