import Foundation
import Testing

/// The built `mediashell` binary driven through a real pty by `expect`: Tab completes a name with spaces,
/// Ctrl-C discards the line and shows a fresh prompt, history survives a restart.
/// Every wait is bounded by expect's timeout; each failing step exits with its own code.
@Suite struct TerminalSessionTests {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("mediashell").path
    static let expect = "/usr/bin/expect"
    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: binary) && FileManager.default.isExecutableFile(atPath: expect)
    }

    static let script = #"""
        set timeout 10
        set binary [lindex $argv 0]
        proc must {pattern code} {
            expect {
                -re $pattern {}
                timeout { puts "step $code timed out"; exit $code }
                eof { puts "step $code: the shell ended"; exit [expr {$code + 100}] }
            }
        }
        log_user 0
        spawn -noecho env TERM=xterm LANG=C.UTF-8 $binary
        must {demo:/DCIM/100MEDIA> $} 2
        send "fetch Bir\t"
        must {thday\\ Party\.MP4 $} 3
        send "\r"
        must {fetch  arguments: \[Birthday Party\.MP4\]} 4
        must {> $} 5
        send "fetch DJI_00\t\t"
        must {DJI_0001\.JPG +DJI_000[0-9]\.JPG} 6
        must {> fetch DJI_00$} 7
        send "\025ls half typed"
        must {ls half typed$} 8
        send "\003"
        must {\r\n[^\r\n]*demo:/DCIM/100MEDIA> $} 9
        send "pwd\r"
        expect {
            -re {\[half\]|typedpwd} { puts "Ctrl-C kept the line"; exit 10 }
            -re {\r\npwd\r\n} {}
            timeout { exit 11 }
        }
        must {> $} 12
        send "\004"
        expect eof
        spawn -noecho env TERM=xterm LANG=C.UTF-8 $binary
        must {demo:/DCIM/100MEDIA> $} 13
        send "\020"
        must {(> |\x1b\[[0-9]+G)pwd$} 14
        send "\020"
        must {(> |\x1b\[[0-9]+G)fetch Birthday\\ Party\.MP4 ?$} 15
        send "\r"
        must {fetch  arguments: \[Birthday Party\.MP4\]} 16
        send "quit\r"
        expect eof
        exit 0
        """#

    @Test(.enabled(if: available, "needs the built mediashell binary and expect"))
    func tabCtrlCAndHistoryInAPty() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("msh-pty-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let scriptURL = home.appendingPathComponent("session.exp")
        try Data(Self.script.utf8).write(to: scriptURL)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.expect)
        process.arguments = [scriptURL.path, Self.binary]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment.removeValue(forKey: "XDG_STATE_HOME")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let transcript = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "expect failed: \(transcript)")

        let history = home.appendingPathComponent(".local/state/mediashell/history").path
        let attributes = try FileManager.default.attributesOfItem(atPath: history)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}
