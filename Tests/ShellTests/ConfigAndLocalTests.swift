import Foundation
import TestSupport
import Testing

/// Issue 13's config file, aliases and local side through the built binary: the config runs before a
/// script (errors as FILE:LINE that do not stop it; `-n` skips it; `set camera` opens that camera),
/// `set --save`, `alias` with `$1`/`$@` and no shadowing of a command, `!CMD`, `lls`, `lcd` with `~`, `-`
/// and nothing (honouring `$HOME`), `lmkdir`; and `summary` listing only what the camera can do.
@Suite(.enabled(if: ShellBinary.exists, "needs the built mediashell binary"), .tags(.process), .notInFastRun)
struct ConfigAndLocalTests {
    let home: TemporaryFolder
    let card: TemporaryFolder

    init() throws {
        home = try TemporaryFolder("msh-home")
        card = try makeCardFolder()
    }

    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ShellBinary.Result {
        var env = ["HOME": home.path, "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": home.path + "/state"]
        for (key, value) in environment { env[key] = value }
        let result = try ShellBinary.run(arguments, directory: home.path, environment: env)
        #expect(!result.timedOut)
        return result
    }

    @Test func theConfigFileRunsFirstAndItsErrorsNameFileAndLine() throws {
        let config = try home.write(
            ".config/mediashell/config",
            text: "# mine\nset limit-rate 20M\nbogus\nalias recent 'cd DCIM/100MEDIA; ls -1 $@'\nset camera dir:\(card.path)\n")
        let result = try run(["-c", "set limit-rate; recent DJI*"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.errorLines == ["\(config):3: error: column 1: unknown command 'bogus' (try 'help')"])
        #expect(result.outputLines == ["limit-rate 20.0 MB/s", "DJI_0001.JPG", "DJI_0002.JPG", "DJI_0003.MP4", "DJI_0003.SRT"])

        let skipped = try run(["-n", "--camera", "dir:\(card.path)", "-c", "set limit-rate\nrecent"])
        #expect(skipped.status == 1)
        #expect(skipped.outputLines == ["limit-rate off"])
        #expect(skipped.errorLines.count == 1 && skipped.errorLines[0].contains("unknown command 'recent'"))

        // $XDG_CONFIG_HOME wins over ~/.config.
        let xdg = try home.write("xdg/mediashell/config", text: "set limit-rate 1M\n")
        let other = try run(["--camera", "sim:", "-c", "set limit-rate"], environment: ["XDG_CONFIG_HOME": home.path + "/xdg"])
        #expect(other.outputLines == ["limit-rate 1.0 MB/s"], "\(xdg): \(other.standardError)")
    }

    @Test func setSaveWritesTheConfigFile() throws {
        _ = try home.write(".config/mediashell/config", text: "set limit-rate 20M\nalias x 'pwd'\n")
        let saved = try run(["--camera", "sim:", "-c", "set --save limit-rate 5M; set --save download-dir '/tmp/My Pictures'"])
        #expect(saved.status == 0, "\(saved.standardError)")
        let text = String(decoding: home.read(".config/mediashell/config") ?? [], as: UTF8.self)
        #expect(text == "set limit-rate '5M'\nalias x 'pwd'\nset download-dir '/tmp/My Pictures'\n")
        let next = try run(["--camera", "sim:", "-c", "set limit-rate; set download-dir"])
        #expect(next.outputLines == ["limit-rate 5.0 MB/s", "download-dir /tmp/My Pictures"])
    }

    @Test func aliasesTakeArgumentsAndNeverShadowACommand() throws {
        let result = try run([
            "--camera", "dir:\(card.path)", "-c",
            "alias peek 'cd DCIM/100MEDIA; info $1'\nalias names 'ls -1 $@'\npeek DJI_0001.JPG\nnames My*\nalias\n-alias ls 'pwd'\nunalias names\n-names",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("DJI_0001.JPG"))
        #expect(result.outputLines.contains("My Clip 1.MP4") && result.outputLines.contains("My Clip 2.MP4"))
        #expect(result.outputLines.contains("alias names 'ls -1 $@'"))
        #expect(result.outputLines.contains("alias peek 'cd DCIM/100MEDIA; info $1'"))
        #expect(result.errorLines.count == 2)
        #expect(result.errorLines.first?.contains("'ls' is a mediashell command; an alias cannot replace it") == true)
        #expect(result.errorLines.last?.contains("unknown command 'names'") == true)
    }

    @Test func localCommandsHonourHome() throws {
        try home.write("pics/a.jpg", text: "x")
        let result = try run([
            "--camera", "sim:", "-c",
            "lcd ~/pics\nlpwd\nlls\n!echo \"from sh: $HOME\"; echo two\nlcd\nlpwd\nlcd -\nlmkdir new\nlmkdir -p deep/er\n-lmkdir new\n!exit 3",
        ])
        #expect(result.status == 1)
        let real = URL(fileURLWithPath: home.path).resolvingSymlinksInPath().path
        #expect(result.outputLines == [
            real + "/pics", "a.jpg", "from sh: \(home.path)", "two", real, real + "/pics",
        ], "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: home.path + "/pics/new"))
        #expect(FileManager.default.fileExists(atPath: home.path + "/pics/deep/er"))
        #expect(result.errorLines.count == 2)
        #expect(result.errorLines.first?.contains("already exists") == true)
        #expect(result.errorLines.last == "-c:11: error: !: exited with status 3")
    }

    @Test func summaryListsOnlyWhatTheCameraCanDo() throws {
        let folder = try run(["--camera", "dir:\(card.path)", "-c", "summary"])
        let can = try #require(folder.outputLines.first { $0.hasPrefix("can:") })
        #expect(!can.contains("capture"), "a card folder cannot capture: \(can)")
        #expect(folder.outputLines.contains { $0.hasPrefix("camera:") && $0.contains("card folder") })
        #expect(!folder.outputLines.contains { $0.contains("MSH00000001") })
        let demo = try run(["--camera", "sim:", "-c", "summary"])
        #expect(demo.outputLines.first { $0.hasPrefix("can:") }?.contains("capture") == true, "the virtual camera captures")
    }
}
