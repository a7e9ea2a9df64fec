import Foundation
import Testing
import TestSupport

@testable import Shell
@testable import TerminalKit

/// Issue 13's output habits through the built binary: a full disk fails the command, a reader that went
/// away ends the shell quietly, `ls -1/-h/-a`, `ls DCIM/*` in blocks and `-d`, GNU ls quoting on a terminal, the hint to quote a name with
/// spaces, and `fetch --force` saying what it replaced.
@Suite(.enabled(if: ShellBinary.exists, "needs the built mediashell binary"), .tags(.process), .notInFastRun)
struct OutputHabitsTests {
    let folder: TemporaryFolder
    let card: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("msh-output")
        card = try makeCardFolder()
    }

    private func shell(_ script: String) throws -> ShellBinary.Result {
        let result = try ShellBinary.runProgram(
            "/bin/bash", ["-c", script], directory: folder.path,
            environment: ["MSH": ShellBinary.path, "CARD": "dir:" + card.path, "HOME": folder.path])
        #expect(!result.timedOut, "the shell did not finish")
        return result
    }

    @Test func aFullDiskFailsTheCommandWithExitOne() throws {
        let result = try shell(#"$MSH --camera "$CARD" -c 'ls DCIM/100MEDIA' > /dev/full"#)
        #expect(result.status == 1)
        #expect(result.errorLines == ["-c:1: error: ls: cannot write to standard output: No space left on device"])
    }

    @Test func aClosedPipeEndsQuietlyAndPromptly() throws {
        // Enough output that the writes go on after head has left; the script would otherwise fetch.
        let lines = String(repeating: "help\n", count: 400) + "fetch DCIM/100MEDIA/DJI_0001.JPG\n"
        let script = try folder.write("long.msh", text: lines)
        let result = try shell(#"$MSH --camera "$CARD" -f \#(script) | head -1; echo "status=${PIPESTATUS[0]}""#)
        #expect(result.standardError == "", "no error for a reader that went away")
        #expect(result.outputLines == ["session:", "status=141"])
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/DJI_0001.JPG"), "the script went on")
    }

    @Test func lsTakesOneHumanAndAll() throws {
        let result = try shell(
            #"cd_=DCIM/100MEDIA; $MSH --camera "$CARD" -c "cd $cd_; ls -1; ls -a; ls -lh; ls -1l; ls -l""#)
        #expect(result.status == 0, "\(result.standardError)")
        let names = ["Birthday Party.MP4", "DJI_0001.JPG", "DJI_0002.JPG", "DJI_0003.MP4", "DJI_0003.SRT",
            "My Clip 1.MP4", "My Clip 2.MP4"]
        let lines = result.outputLines
        #expect(Array(lines.prefix(7)) == names, "ls -1: one per line")
        #expect(Array(lines[7..<14]) == names, "ls -a: the same (no hidden names here)")
        let long = Array(lines[14..<21])
        #expect(long.first?.hasSuffix("Birthday Party.MP4") == true)
        #expect(Array(lines[21..<28]) == long && Array(lines[28..<35]) == long, "-lh and -1l are ls -l")
    }

    @Test func aGlobThatMatchesFoldersListsEachUnderItsName() throws {
        try card.write("DCIM/PANO.JPG", patternBytes(500, seed: 9))
        let result = try shell(
            #"for c in 'ls DCIM/*' 'ls -l DCIM/*' 'ls -d DCIM/*' 'ls DCIM/101*' 'ls --json DCIM/10*'; do "#
            + #"$MSH --camera "$CARD" -c "$c"; echo "status=$?"; done"#)
        #expect(result.standardError == "")
        // Blank lines kept (they separate the blocks); the text ends in a newline, not in another line.
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let runs = lines.split(whereSeparator: { $0.hasPrefix("status=") }).map(Array.init)
        #expect(lines.filter { $0.hasPrefix("status=") } == Array(repeating: "status=0", count: 5))
        #expect(runs.count == 5)
        guard runs.count == 5 else { return }
        #expect(runs[0] == [
            "DCIM/PANO.JPG", "", "DCIM/100MEDIA:", "Birthday Party.MP4", "DJI_0001.JPG", "DJI_0002.JPG",
            "DJI_0003.MP4", "DJI_0003.SRT", "My Clip 1.MP4", "My Clip 2.MP4", "", "DCIM/101MEDIA:",
            "IMG_0100.JPG", "IMG_0101.JPG",
        ], "files first, then each folder under its name")
        #expect(runs[1].count == 14 && runs[1][0].hasSuffix("  DCIM/PANO.JPG") && runs[1][2] == "DCIM/100MEDIA:"
            && runs[1][3].hasSuffix("  Birthday Party.MP4") && runs[1][11] == "DCIM/101MEDIA:"
            && runs[1][13].hasSuffix("  IMG_0101.JPG"), "ls -l: the same blocks, long")
        #expect(runs[2] == ["DCIM/100MEDIA/", "DCIM/101MEDIA/", "DCIM/PANO.JPG"], "ls -d: the folders themselves")
        #expect(runs[3] == ["IMG_0100.JPG", "IMG_0101.JPG"], "one folder matched: its contents, no heading")
        let paths = runs[4].filter { $0.contains("\"path\"") }
        #expect(paths.count == 9 && paths.last?.contains("/DCIM/101MEDIA/IMG_0101.JPG") == true, "--json: one list")
    }

    @Test func aNameWithSpacesTypedUnquotedGetsAHint() throws {
        let result = try shell(
            #"$MSH --camera "$CARD" -c $'cd DCIM/100MEDIA\n-select My Clip 1.MP4\nfetch My Clip 2.MP4'"#)
        #expect(result.status == 1)
        #expect(result.errorLines == [
            "-c:2: error: column 12: select: unexpected argument 'Clip'; did you mean to quote 'My Clip 1.MP4'?",
            "-c:3: error: fetch: no such file or folder: My; did you mean to quote 'My Clip 2.MP4'?",
        ])
    }

    @Test func fetchForceSaysItReplacedAFile() throws {
        try folder.write("DJI_0001.JPG", text: "an older, different file")
        let result = try shell(#"$MSH --camera "$CARD" -c 'cd DCIM/100MEDIA; fetch --force DJI_0001.JPG'"#)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("replaced the different file that was there (--force)"), "\(result.standardOutput)")
        #expect(folder.read("DJI_0001.JPG") == card.read("DCIM/100MEDIA/DJI_0001.JPG"))
    }

    @Test func namesAreQuotedAsGNULsQuotesThemOnATerminal() throws {
        #expect(ShellEscapedName.quoted("DJI_0001.JPG") == "DJI_0001.JPG")
        #expect(ShellEscapedName.quoted("My Clip.MP4") == "'My Clip.MP4'")
        #expect(ShellEscapedName.quoted("Bob's.JPG") == "\"Bob's.JPG\"")
        #expect(ShellEscapedName.quoted("it's $5.JPG") == "'it'\\''s $5.JPG'")
        #expect(ShellEscapedName.quoted("~home") == "'~home'")
        #expect(ShellEscapedName.quoted("a~b") == "a~b")
        #expect(ShellEscapedName.column(["a b", "c"], suffixes: ["/", ""]) == ["'a b'/", " c"])

        let result = try Expect.run(
            """
            spawn -noecho env TERM=xterm LANG=C.UTF-8 HOME=\(folder.path) XDG_STATE_HOME=\(folder.path)/state {\(ShellBinary.path)} --camera {dir:\(card.path)}
            must {dir:/> $} 2
            send "cd DCIM/100MEDIA; ls -1\\r"
            must {\\r\\n'Birthday Party\\.MP4'\\r\\n DJI_0001\\.JPG\\r\\n} 3
            must {\\r\\n'My Clip 2\\.MP4'\\r\\n} 4
            send "ls -l My*\\r"
            must {'My Clip 1\\.MP4'\\r\\n} 5
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
    }
}
