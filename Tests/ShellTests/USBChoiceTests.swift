import Foundation
import TestSupport
import Testing

/// Choosing among several USB cameras, with virtual cameras presented as attached
/// (`MEDIASHELL_DEMO_USB_CAMERAS`): a script with a bare `usb:` (or none) and two cameras stops with the
/// list; `usb:serial=` and `usb:model=` name one; `devices`, `summary` and `open` write one address format.
@Suite(.enabled(if: ShellBinary.exists, "needs the built mediashell binary"), .tags(.process), .notInFastRun)
struct USBChoiceScriptTests {
    static let twoCameras = "Alpha One/A1;Beta Two/B2"
    let home: TemporaryFolder

    init() throws { home = try TemporaryFolder("msh-usbchoice") }

    private func run(_ arguments: [String], cameras: String = twoCameras, input: String = "") throws -> ShellBinary.Result {
        let result = try ShellBinary.run(
            arguments, input: input, directory: home.path,
            environment: [
                "HOME": home.path, "XDG_DATA_HOME": home.path + "/data", "MEDIASHELL_DEMO_USB_CAMERAS": cameras,
                "MEDIASHELL_DISCOVERY_TARGETS": "off",
            ])
        #expect(!result.timedOut, "the shell did not finish")
        return result
    }

    /// The value of a `summary` row (`serial:`, `opened as:`).
    private func row(_ name: String, in result: ShellBinary.Result) -> String? {
        result.outputLines.first { $0.hasPrefix(name + " ") }.map {
            String($0.dropFirst(name.count)).trimmingCharacters(in: .whitespaces)
        }
    }

    @Test func aScriptWithABareUSBAndTwoCamerasFailsWithTheList() throws {
        for arguments in [["--camera", "usb:", "-c", "summary"], ["-c", "summary"], ["--camera", "usb:"]] {
            let result = try run(arguments, input: "summary\n")
            #expect(result.status == 1, "\(arguments): \(result.standardError)")
            #expect(result.standardOutput.isEmpty, "nothing ran: \(result.standardOutput)")
            let error = result.standardError
            #expect(result.errorLines.count == 1, "one line: \(error)")
            #expect(error.contains("2 USB cameras are attached"), "\(error)")
            #expect(error.contains("usb:001,002 mediashell Alpha One (serial A1)"), "\(error)")
            #expect(error.contains("usb:001,003 mediashell Beta Two (serial B2)"), "\(error)")
            #expect(error.contains("usb:serial=SERIAL, usb:model=NAME or usb:BUS,ADDR"), "\(error)")
            #expect(!error.contains("no camera found"), "\(error)")
            #expect(!error.contains("usb::"), "the URL and the message's colon apart: \(error)")
        }
    }

    @Test func aSerialNumberOrAModelNameSelectsOne() throws {
        let beta = try run(["--camera", "usb:serial=B2", "-c", "summary"])
        #expect(beta.status == 0, "\(beta.standardError)")
        #expect(row("serial:", in: beta) == "B2")
        #expect(row("opened as:", in: beta) == "usb:001,003")

        let alpha = try run(["--camera", "usb:model=alpha", "-c", "summary"])
        #expect(alpha.status == 0, "\(alpha.standardError)")
        #expect(row("serial:", in: alpha) == "A1")
        #expect(row("opened as:", in: alpha) == "usb:001,002")

        // A name both cameras share is as ambiguous as a bare usb:.
        let both = try run(["--camera", "usb:model=O", "-c", "summary"])
        #expect(both.status == 1)
        #expect(both.standardError.contains("2 USB cameras match usb:model=O"), "\(both.standardError)")

        let none = try run(["--camera", "usb:serial=A", "-c", "summary"])
        #expect(none.status == 1)
        #expect(none.standardError.contains("no USB camera matches usb:serial=A"), "a serial matches whole: \(none.standardError)")
    }

    @Test func openInAScriptFollowsTheSameRules() throws {
        let result = try run(["--camera", "usb:serial=A1", "-c", "open usb:serial=B2; summary; open usb:"])
        #expect(result.status == 1)
        #expect(result.outputLines.first == "opened usb:001,003 (mediashell Beta Two, 10 files)")
        #expect(row("serial:", in: result) == "B2")
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("-c:1: error: open: cannot open 'usb:': 2 USB cameras are attached") == true,
            "\(result.standardError)")
    }

    @Test func oneCameraNeedsNoName() throws {
        let result = try run(["-c", "summary"], cameras: "Alpha One/A1")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(row("opened as:", in: result) == "usb:001,002")
    }

    @Test func devicesAndSummaryWriteTheSameAddress() throws {
        let devices = try run(["devices"])
        #expect(devices.status == 0)
        #expect(devices.outputLines == [
            "usb:001,002  f055:0001  mediashell Alpha One  serial A1",
            "usb:001,003  f055:0001  mediashell Beta Two  serial B2",
        ])
        let inShell = try run(["--camera", "usb:serial=B2", "-c", "devices"])
        #expect(inShell.outputLines == devices.outputLines)
        for line in devices.outputLines {
            let address = String(line.prefix { $0 != " " })
            let summary = try run(["--camera", address, "-c", "summary"])
            #expect(row("opened as:", in: summary) == address, "\(summary.standardOutput)")
        }
    }
}

/// At a prompt, a bare `usb:` with two cameras opens the first, and says which and how to open the other.
@Suite(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: Expect.path),
    "needs the built mediashell binary and expect"), .tags(.process), .notInFastRun)
struct USBChoiceTerminalTests {
    @Test func thePromptOpensTheFirstAndNamesTheOther() throws {
        let home = try TemporaryFolder("msh-usbchoice-pty")
        let result = try Expect.run(
            """
            spawn -noecho env TERM=xterm LANG=C.UTF-8 HOME=\(home.path) XDG_STATE_HOME=\(home.path)/state \
            {MEDIASHELL_DEMO_USB_CAMERAS=Alpha One/A1;Beta Two/B2} {\(ShellBinary.path)}
            must {opened usb:001,002 \\(mediashell Alpha One, 10 files\\)} 2
            must {2 USB cameras are attached; opened usb:001,002 mediashell Alpha One \\(serial A1\\); 'open usb:serial=B2' opens usb:001,003 mediashell Beta Two \\(serial B2\\)} 3
            must {usb:/> $} 4
            send "open usb:serial=B2\\r"
            must {opened usb:001,003 \\(mediashell Beta Two, 10 files\\)\\r\\n} 5
            must {usb:/> $} 6
            send "summary\\r"
            must {serial: +B2\\r\\n} 7
            must {opened as: +usb:001,003\\r\\n} 8
            must {usb:/> $} 9
            send "open usb:\\r"
            must {opened usb:001,002 \\(mediashell Alpha One, 10 files\\)\\r\\n2 USB cameras are attached; opened usb:001,002} 10
            must {usb:/> $} 11
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
    }
}
