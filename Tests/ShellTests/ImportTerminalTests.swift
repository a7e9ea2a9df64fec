import Foundation
import TestSupport
import Testing

/// `import` at a real prompt through a pty (expect): the batch's progress line, Ctrl-C in the middle,
/// then `import` again brings the rest, nothing twice, byte-identical; and the demo card's banner.
@Suite(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: Expect.path),
    "needs the built mediashell binary and expect"), .tags(.process), .notInFastRun)
struct ImportTerminalTests {
    let home: TemporaryFolder

    init() throws {
        home = try TemporaryFolder("msh-pty-import")
    }

    private func spawn(_ arguments: String) -> String {
        "spawn -noecho env TERM=xterm LANG=C.UTF-8 HOME=\(home.path) XDG_STATE_HOME=\(home.path)/state "
            + "XDG_DATA_HOME=\(home.path)/data {\(ShellBinary.path)} \(arguments)"
    }

    @Test func ctrlCInTheMiddleThenImportAgainBringsTheRest() throws {
        let card = try makeCardFolder(bigFileSize: 3_000_000)
        try card.write("DCIM/102MEDIA/DJI_0900.MP4", patternBytes(3_000_000, seed: 11))
        let pictures = home.path + "/Pictures"
        // Generous bounds for a loaded machine; a hang still fails the step that waits.
        let result = try Expect.run(
            """
            set timeout 60
            \(spawn("--camera {dir:\(card.path)}"))
            must {dir:/> $} 2
            send "set limit-rate 2M; import --to \(pictures)/%Y\\r"
            must {[0-9]+/10 files  [1-9][0-9.]* [kM]B of 6\\.[0-9] MB  } 3
            send "\\003"
            must {import: interrupted(: [^\\r\\n]* stopped at [0-9.]+ [kM]?B of [0-9.]+ [kM]?B, kept as \\.part)?; the same 'import' again fetches what is left, nothing twice} 4
            must {dir:/[^\r\n]*> $} 5
            send "set limit-rate off; import --to \(pictures)/%Y\\r"
            must {import: [0-9]+ fetched, [0-9]+ skipped \\(already imported\\), 0 renamed, 0 failed;} 6
            must {dir:/[^\r\n]*> $} 7
            send "import --to \(pictures)/%Y\\r"
            must {import: 0 fetched, 10 skipped \\(already imported\\)} 8
            must {dir:/[^\r\n]*> $} 9
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
        let local = (FileManager.default.subpaths(atPath: pictures) ?? []).filter { $0.contains(".") && !isImportManifest($0) }.sorted()
        #expect(local.count == 10, "\(local)")
        #expect(!local.contains { $0.hasSuffix(".part") || $0.contains(" (2)") })
        for (relative, name) in [("DCIM/100MEDIA/DJI_0003.MP4", "DJI_0003.MP4"), ("DCIM/102MEDIA/DJI_0900.MP4", "DJI_0900.MP4")] {
            let path = try #require(local.first { $0.hasSuffix("/" + name) })
            let same = FileManager.default.contents(atPath: pictures + "/" + path) == Data(card.read(relative) ?? [])
            #expect(same, "\(name) differs from the card")
        }
    }

    /// Issue 30: Ctrl-C in an import to two destinations, then the same import again: both complete,
    /// byte-identical to the card, each with its manifest (BackupFaultTests counts the bytes: none read
    /// twice from the camera).
    @Test func ctrlCAndResumeWithTwoDestinations() throws {
        let card = try makeCardFolder(bigFileSize: 3_000_000)
        let pictures = home.path + "/Pictures"
        let backup = home.path + "/Backup"
        try FileManager.default.createDirectory(atPath: backup, withIntermediateDirectories: true)
        let command = "import --to \(pictures)/%Y --backup \(backup) --verify read-back"
        let result = try Expect.run(
            """
            set timeout 60
            \(spawn("--camera {dir:\(card.path)}"))
            must {dir:/> $} 2
            send "set limit-rate 1M; \(command)\\r"
            must {[0-9]+/9 files  [1-9][0-9.]* [kM]B of 3\\.[0-9] MB  } 3
            send "\\003"
            must {import: interrupted[^\\r\\n]*; the same 'import' again fetches what is left, nothing twice} 4
            must {dir:/[^\r\n]*> $} 5
            send "set limit-rate off; \(command)\\r"
            must {import: [0-9]+ fetched, [0-9]+ skipped \\(already imported\\), 0 renamed, 0 failed;[^\\r\\n]*; checksums in [^\\r\\n]*; checksums in } 6
            must {dir:/[^\r\n]*> $} 7
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
        let files = { (root: String) in
            (FileManager.default.subpaths(atPath: root) ?? []).filter { $0.contains(".") && !isImportManifest($0) }.sorted()
        }
        #expect(files(pictures).count == 9 && files(pictures) == files(backup), "\(files(pictures)) \(files(backup))")
        for path in files(pictures) {
            #expect(!path.hasSuffix(".part"))
            let same = FileManager.default.contents(atPath: pictures + "/" + path) == FileManager.default.contents(atPath: backup + "/" + path)
            #expect(same, "\(path) differs between the destinations")
        }
        let video = try #require(files(backup).first { $0.hasSuffix("/DJI_0003.MP4") })
        #expect(FileManager.default.contents(atPath: backup + "/" + video) == Data(card.read("DCIM/100MEDIA/DJI_0003.MP4") ?? []))
    }

    @Test func theDemoCardSaysItIsADemoAtThePrompt() throws {
        // No --camera and (on a test machine) no USB camera: the prompt opens the demo card and says so.
        let result = try Expect.run(
            """
            \(spawn(""))
            must {DEMO card \\(sim:\\), not a camera of yours} 2
            must {sim:/> $} 3
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
    }
}
