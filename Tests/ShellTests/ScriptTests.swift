import Foundation
import TestSupport
import Testing

/// The built binary running scripts: exit statuses, `FILE:LINE: error:` of the first error, `-` lines,
/// `set errexit off`, piped standard input, `-c`, `source`, and deletes refused outside edit mode.
@Suite(.enabled(if: ShellBinary.exists, "needs the built mediashell binary"), .tags(.process), .notInFastRun)
struct ScriptTests {
    let folder: TemporaryFolder
    let card: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("msh-script")
        card = try makeCardFolder()
    }

    private func run(_ arguments: [String], input: String = "") throws -> ShellBinary.Result {
        let result = try ShellBinary.run(
            ["--camera", "dir:\(card.path)", "--download-dir", folder.path + "/dl"] + arguments, input: input,
            directory: folder.path, environment: ["HOME": folder.path])
        #expect(!result.timedOut, "the shell did not finish")
        return result
    }

    private func script(_ name: String, _ text: String) throws -> String {
        try folder.write(name, text: text)
    }

    @Test func aScriptThatSucceedsExitsZero() throws {
        let path = try script("ok.msh", "# import the photos\ncd DCIM/100MEDIA\nls *.JPG\nfetch *.JPG; info DJI_0001.JPG\n")
        let result = try run(["-f", path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        #expect(result.outputLines.prefix(2) == ["DJI_0001.JPG", "DJI_0002.JPG"])
        #expect(FileManager.default.fileExists(atPath: folder.path + "/dl/DJI_0002.JPG"))
    }

    @Test func theFirstErrorNamesItsFileAndLineAndStopsTheScript() throws {
        let path = try script("broken.msh", "cd DCIM/100MEDIA\nls\nfetch NOPE.JPG\nfetch DJI_0001.JPG\n")
        let result = try run(["-f", path])
        #expect(result.status == 1)
        #expect(result.errorLines == ["\(path):3: error: fetch: no such file or folder: NOPE.JPG"])
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/dl/DJI_0001.JPG"), "the script went on")
    }

    @Test func dashLinesAndErrexitOffKeepGoing() throws {
        let dash = try script("dash.msh", "cd DCIM/100MEDIA\n-fetch NOPE.JPG\n-bogus\nfetch DJI_0001.JPG\n")
        let excused = try run(["-f", dash])
        #expect(excused.status == 0, "a failure with '-' does not count")
        #expect(excused.errorLines.count == 2)
        #expect(excused.errorLines.first == "\(dash):2: error: fetch: no such file or folder: NOPE.JPG")
        #expect(excused.errorLines.last == "\(dash):3: error: column 2: unknown command 'bogus' (try 'help')")

        let off = try script("off.msh", "set errexit off\ncd DCIM/100MEDIA\nfetch NOPE.JPG\nfetch DJI_0002.JPG\n")
        let kept = try run(["-f", off])
        #expect(kept.status == 1, "the script went on, but a command failed")
        #expect(kept.errorLines == ["\(off):3: error: fetch: no such file or folder: NOPE.JPG"])
        #expect(FileManager.default.fileExists(atPath: folder.path + "/dl/DJI_0002.JPG"))
    }

    @Test func pipedStandardInputIsAScript() throws {
        let result = try run([], input: "pwd\ncd DCIM/100MEDIA\nselect DJI_0003.MP4\noffset\nls NOPE*\npwd\n")
        #expect(result.status == 1)
        #expect(result.outputLines.first == "/")
        #expect(result.outputLines.last == "DJI_0003.MP4: offset 0 of 3000000 bytes (0%)")
        #expect(result.errorLines == ["stdin:5: error: ls: no match for 'NOPE*'"])
        #expect(!result.standardOutput.contains("mediashell dir:"), "no prompt in batch mode")
    }

    @Test func commandsGivenWithDashC() throws {
        let ok = try run(["-c", "cd DCIM/100MEDIA; ls My*\npwd"])
        #expect(ok.status == 0)
        #expect(ok.outputLines == ["My Clip 1.MP4", "My Clip 2.MP4", "/DCIM/100MEDIA"])
        let failed = try run(["-c", "pwd\ncd DCIM/100MEDIA; fetch -x"])
        #expect(failed.status == 1)
        #expect(failed.errorLines == ["-c:2: error: column 25: fetch: unknown option -x"])
    }

    /// A line runs its commands in order up to the one that fails, as a POSIX shell does (an unknown word
    /// later in the line used to reject the whole line before anything ran); `echo` prints its words.
    @Test func aLineRunsItsCommandsUpToTheFailingOne() throws {
        let result = try run(["-c", "cd DCIM/100MEDIA; ls -1 DJI_0001.JPG; echo hi  there; bogus; ls"])
        #expect(result.status == 1)
        #expect(result.outputLines == ["DJI_0001.JPG", "hi there"])
        #expect(result.errorLines == ["-c:1: error: column 55: unknown command 'bogus' (try 'help')"])
        let echoed = try run(["-c", "echo -n 'no newline,'; echo ' then' -n; echo"])
        #expect(echoed.status == 0, "\(echoed.standardError)")
        #expect(echoed.standardOutput == "no newline, then -n\n\n")
    }

    @Test func sourceRunsAScriptInsideAScript() throws {
        let inner = try script("inner.msh", "cd DCIM/100MEDIA\nls DJI_0001.JPG\nls MISSING.JPG\nls DJI_0002.JPG\n")
        let outer = try script("outer.msh", "pwd\nsource \(inner)\npwd\n")
        let result = try run(["-f", outer])
        #expect(result.status == 1)
        #expect(result.errorLines == ["\(inner):3: error: ls: no such file or folder: MISSING.JPG"])
        #expect(result.outputLines == ["/", "DJI_0001.JPG"])

        let excused = try script("excused.msh", "-source \(inner)\npwd\n")
        let goesOn = try run(["-f", excused])
        #expect(goesOn.status == 0)
        #expect(goesOn.outputLines.last == "/DCIM/100MEDIA")

        let loop = try script("loop.msh", "source loop.msh\n")
        let deep = try run(["-f", loop])
        #expect(deep.status == 1)
        #expect(deep.errorLines.last?.contains("scripts nested more than 16 deep") == true, "\(deep.errorLines)")
    }

    @Test func deleteInAScriptNeedsEditModeOrForce() throws {
        let refused = try run(["-c", "cd DCIM/100MEDIA; delete DJI_0001.JPG"])
        #expect(refused.status == 1)
        #expect(refused.errorLines == [
            "-c:1: error: delete: refused: not in edit mode (type 'edit' first, or use delete --force)"
        ])
        #expect(FileManager.default.fileExists(atPath: card.path + "/DCIM/100MEDIA/DJI_0001.JPG"))

        let edit = try run(["-c", "cd DCIM/100MEDIA\nedit\nrm DJI_0001.JPG 'My Clip 1.MP4'\ndone\nrm --force DJI_0002.JPG"])
        #expect(edit.status == 0, "\(edit.standardError)")
        #expect(edit.outputLines.filter { $0.hasPrefix("deleted ") } == [
            "deleted /DCIM/100MEDIA/DJI_0001.JPG", "deleted /DCIM/100MEDIA/My Clip 1.MP4",
            "deleted /DCIM/100MEDIA/DJI_0002.JPG",
        ])
        #expect(!FileManager.default.fileExists(atPath: card.path + "/DCIM/100MEDIA/DJI_0002.JPG"))
    }

    @Test func brokenScriptsGetClearErrors() throws {
        let quote = try script("quote.msh", "pwd\nfetch 'My Clip 1.MP4\npwd\n")
        let unterminated = try run(["-f", quote])
        #expect(unterminated.status == 1)
        #expect(unterminated.errorLines == ["\(quote):2: error: column 7: unterminated single quote"])
        #expect(unterminated.outputLines == ["/"])

        let unknown = try run(["-c", "pwd; fecth x"])
        #expect(unknown.status == 1)
        #expect(unknown.errorLines == ["-c:1: error: column 6: unknown command 'fecth'; did you mean 'fetch'? (try 'help')"])
        #expect(unknown.outputLines == ["/"], "a line runs up to its failing command, as a POSIX shell's does")

        let missing = try run(["-f", folder.path + "/nope.msh"])
        #expect(missing.status == 1)
        #expect(missing.errorLines.first?.hasPrefix("mediashell: cannot read \(folder.path)/nope.msh:") == true)
    }

    @Test func invocationErrorsAndHelp() throws {
        let both = try ShellBinary.run(["-c", "ls", "-f", "x"])
        #expect(both.status == 2)
        #expect(both.errorLines == ["mediashell: -f and -c cannot be used together (try 'mediashell --help')"])
        let wrong = try ShellBinary.run(["--bogus"])
        #expect(wrong.status == 2)
        #expect(wrong.errorLines == ["mediashell: unknown option --bogus (try 'mediashell --help')"], "one line, not the usage")
        let noConfig = try ShellBinary.run(["-n", "devices"], environment: ["MEDIASHELL_DISCOVERY_TARGETS": "off"])
        #expect(noConfig.status == 0 && noConfig.outputLines == ["no USB cameras found"], "\(noConfig.standardError)")
        let help = try ShellBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.outputLines.first?.hasPrefix("usage: mediashell [--camera URL]") == true)
        // Discovery asks an address where nobody answers (a port nobody listens on): nothing found, said.
        let devices = try ShellBinary.run(["devices"], environment: ["MEDIASHELL_DISCOVERY_TARGETS": "ssdp=127.0.0.1:9,mdns=127.0.0.1:9"])
        #expect(devices.status == 0)
        #expect(devices.outputLines == ["no USB cameras found", "no Wi-Fi cameras answered within 2 s (SSDP, mDNS)"])
        let badCamera = try ShellBinary.run(["--camera", "ptpip:", "-c", "pwd"])
        #expect(badCamera.status == 1)
        #expect(badCamera.errorLines.first?.hasPrefix("mediashell: cannot open 'ptpip:': ") == true)
    }

    @Test func aScriptNeverFallsBackToTheDemoCamera() throws {
        // With nothing attached and no --camera, a script (-c, -f, piped input) stops before its first line
        // and fetches nothing: a cron import never fills a library with demo files.
        let downloads = folder.path + "/cron"
        let script = try script("cron.msh", "fetch -o \(downloads) /DCIM/*/*\n")
        for (arguments, input) in [(["-c", "fetch -o \(downloads) /DCIM/*/*"], ""), (["-f", script], ""), ([], "fetch -o \(downloads) /DCIM/*/*\n")] {
            let result = try ShellBinary.run(arguments, input: input, environment: ["HOME": folder.path])
            #expect(result.status == 1)
            #expect(result.errorLines == ["mediashell: no camera found (use --camera sim: for the demo card)"])
            #expect(result.standardOutput.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: downloads))
        // Asked for by name, the demo card works in a script.
        let demo = try ShellBinary.run(["--camera", "sim:", "-c", "cd DCIM/100MEDIA; pwd; ls DJI_0003.*; help fetch"], environment: ["HOME": folder.path])
        #expect(demo.status == 0)
        #expect(demo.standardError.isEmpty)
        #expect(demo.outputLines.prefix(4) == ["/DCIM/100MEDIA", "DJI_0003.LRF", "DJI_0003.MP4", "DJI_0003.SRT"])
        #expect(demo.standardOutput.contains("usage: fetch [-c] [-r] [-o DIR]"))
    }

    @Test func historyIsKeptOnlyAtAPrompt() throws {
        _ = try run([], input: "pwd\nls\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/.local/state/mediashell/history"))
    }
}
