import Foundation
import MediaManager
import Playback
import TestSupport
import Testing

@testable import Shell
@testable import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

/// The playback commands at the interpreter, on the demo card (`sim:`) with no player: DJI_0003.MP4 is
/// landscape, 3 s at 30 fps with a keyframe each second; DJI_0005.MP4 portrait, 2 s at 25 fps.
/// Every check on a position is made while paused (or on the keyframe a seek reports), so the clock never
/// matters.
@Suite struct PlaybackCommandTests {
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        (interpreter, output) = Self.makeInterpreter(unicode: true)
        try interpreter.open(.simulator(path: nil))
        #expect(interpreter.run(line: "cd DCIM/100MEDIA") == .success)
    }

    static func makeInterpreter(unicode: Bool) -> (Interpreter, CapturedOutput) {
        var settings = Settings()
        settings.player = .none
        let output = CapturedOutput()
        let interpreter = Interpreter(
            output: output, interrupt: ScriptedInterrupt(), settings: settings,
            playbackEnvironment: PlaybackEnvironment(unicode: unicode))
        return (interpreter, output)
    }

    private func run(_ line: String) -> LineStatus {
        interpreter.run(line: line)
    }

    /// The last line printed, as the JSON object `status --json` prints.
    private func lastJSON() throws -> [String: Any] {
        let line = try #require(output.lines.last)
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    @Test func aKeyframeSeekLandsOnThePrecedingKeyframe() throws {
        #expect(run("play DJI_0003.MP4; seek --key 2.4; status --json") == .success, "\(output.errors)")
        #expect(output.lines.first == "playing DJI_0003.MP4 (0:03.0, 30 fps, 640x360 landscape)")
        #expect(output.lines.dropFirst().first == "seek 0:02.40: landed on keyframe #2 at 0:02.00 (frame 60)")
        let status = try lastJSON()
        let seek = try #require(status["lastSeek"] as? [String: Any])
        #expect(seek["landed"] as? Double == 2.0 && seek["keyframeIndex"] as? Int == 2 && seek["frameIndex"] as? Int == 60)
        #expect(seek["requested"] as? Double == 2.4)
        #expect(status["media"] as? String == "DJI_0003.MP4" && status["orientation"] as? String == "landscape")
        #expect(status["duration"] as? Double == 3.0 && status["frameCount"] as? Int == 90)
        #expect(status["player"] == nil, "no player with 'set player none'")
        let position = try #require(status["position"] as? Double)
        let state = try #require(status["state"] as? String)
        #expect(state == "playing" && position >= 2.0 || state == "ended", "\(status)")
        #expect(output.errors.isEmpty)
    }

    @Test func pauseStepResumeStop() throws {
        #expect(run("play DJI_0003.MP4; pause; seek 1.5") == .success, "\(output.errors)")
        #expect(output.lines.last == "seek 0:01.50: frame 45 of 90 at 0:01.50, decoded from keyframe #1 at 0:01.00")
        #expect(run("step 3; status --json") == .success)
        var status = try lastJSON()
        #expect(status["state"] as? String == "paused" && status["frameIndex"] as? Int == 48)
        #expect(output.lines.dropLast().last == "step 3: frame 48 of 90 at 0:01.60, decoded from keyframe #1 at 0:01.00")
        #expect(run("step -1") == .success)
        #expect(output.lines.last == "step -1: frame 47 of 90 at 0:01.57, decoded from keyframe #1 at 0:01.00")
        #expect(run("step 500") == .success)
        #expect(output.lines.last == "step 500: moved 42, stopped at the last frame: frame 89 of 90 at 0:02.97, decoded from keyframe #2 at 0:02.00")
        #expect(run("seek 1; resume") == .success)
        #expect(output.lines.last == "playing DJI_0003.MP4 from 0:01.0")
        #expect(run("step") == .failure, "step needs a pause")
        #expect(output.errors.last == "error: step: step works while paused: pause DJI_0003.MP4 first")
        // stop unloads the video (the prompt no longer shows it); play starts the selection again.
        #expect(run("stop; status --json") == .success)
        #expect(output.lines.dropLast().last == "stopped DJI_0003.MP4; 'play' starts it again")
        #expect(output.lines.last == #"{"state":"unloaded"}"#)
        #expect(run("pause") == .failure)
        #expect(output.errors.last == "error: pause: no video is loaded: play NAME first")
        #expect(run("play; pause; status --json") == .success)
        status = try lastJSON()
        #expect(status["media"] as? String == "DJI_0003.MP4" && status["state"] as? String == "paused")
        #expect(status["lastSeek"] == nil)
    }

    @Test func relativeAndPercentSeeksAndClamping() throws {
        #expect(run("play DJI_0003.MP4; pause") == .success)
        #expect(run("seek 50%") == .success)
        #expect(output.lines.last == "seek 0:01.50: frame 45 of 90 at 0:01.50, decoded from keyframe #1 at 0:01.00")
        #expect(run("seek +1") == .success)
        #expect(output.lines.last == "seek 0:02.50: frame 75 of 90 at 0:02.50, decoded from keyframe #2 at 0:02.00")
        #expect(run("seek -5") == .success)
        #expect(output.lines.last == "seek -0:02.50 is before the start: clamped to 0:00.00; frame 0 of 90 at 0:00.00, keyframe #0")
        #expect(run("seek 1:00; status --json") == .success)
        #expect(output.lines.dropLast().last == "seek 1:00.00 is past the end (0:03.0): clamped to 0:03.00; frame 89 of 90 at 0:02.97, decoded from keyframe #2 at 0:02.00")
        var seek = try #require(try lastJSON()["lastSeek"] as? [String: Any])
        #expect(seek["clamped"] as? String == "end" && seek["frameIndex"] as? Int == 89)
        #expect(run("seek --key 1:00; status --json") == .success)
        #expect(output.lines.dropLast().last == "seek 1:00.00 is past the end (0:03.0): clamped to 0:03.00; landed on keyframe #2 at 0:02.00 (frame 60)")
        seek = try #require(try lastJSON()["lastSeek"] as? [String: Any])
        #expect(seek["clamped"] as? String == "end" && seek["landed"] as? Double == 2.0 && seek["landing"] as? String == "keyframe")
    }

    @Test func playingAPhotoOrNothingFailsClearly() throws {
        #expect(run("play DJI_0001.JPG") == .failure)
        #expect(output.errors.last == "error: play: DJI_0001.JPG is not a video (play takes MP4 and MOV files)")
        #expect(run("play") == .failure)
        #expect(output.errors.last == "error: play: no file selected (name one, or 'select' one first)")
        #expect(run("play NOPE.MP4") == .failure)
        #expect(output.errors.last == "error: play: no such file or folder: NOPE.MP4")
        for command in ["pause", "resume", "stop", "seek 1", "step"] {
            #expect(run(command) == .failure)
            #expect(output.errors.last == "error: \(command.split(separator: " ")[0]): no video is loaded: play NAME first")
        }
        #expect(run("status; status --json") == .success, "status answers even with nothing loaded")
        #expect(output.lines.suffix(2) == ["no video loaded ('play NAME' starts one)", #"{"state":"unloaded"}"#])
        #expect(interpreter.runScript("cd /\nplay DCIM/100MEDIA/DJI_0001.JPG\npwd") == .stopped)
        #expect(output.errors.last == "test:2: error: play: DJI_0001.JPG is not a video (play takes MP4 and MOV files)")
    }

    @Test func aBarePlayGoesOnOrPlaysTheSelection() throws {
        #expect(run("play DJI_0003.MP4; pause; seek 2.4; play") == .success)
        #expect(output.lines.last == "playing DJI_0003.MP4 from 0:02.4")
        #expect(run("select DJI_0005.MP4; play; pause; status --json") == .success, "\(output.errors)")
        #expect(output.lines.contains("playing DJI_0005.MP4 (0:02.0, 25 fps, 360x640 portrait)"))
        let status = try lastJSON()
        #expect(status["media"] as? String == "DJI_0005.MP4" && status["orientation"] as? String == "portrait")
        #expect(status["rotation"] as? Int == 90 && status["width"] as? Int == 360)
    }

    @Test func thePromptShowsPlaybackUntilTheCameraCloses() throws {
        #expect(interpreter.prompt == "sim:/DCIM/100MEDIA> ")
        #expect(run("play DJI_0003.MP4; pause; seek 2.4") == .success)
        #expect(interpreter.state.selection?.file.name == "DJI_0003.MP4", "play selects the file")
        #expect(interpreter.prompt == "sim:/DCIM/100MEDIA [DJI_0003.MP4] ‖ 0:02.4/0:03> ")
        #expect(run("step 3") == .success)
        #expect(interpreter.prompt == "sim:/DCIM/100MEDIA [DJI_0003.MP4] ‖ 0:02.5/0:03> ")
        #expect(run("select DJI_0001.JPG; edit") == .success)
        #expect(interpreter.prompt == "sim:/DCIM/100MEDIA [DJI_0001.JPG] DJI_0003.MP4 ‖ 0:02.5/0:03 (edit)> ")
        #expect(run("done; stop") == .success)
        #expect(output.lines.last == "stopped DJI_0003.MP4; 'play DJI_0003.MP4' starts it again")
        #expect(interpreter.prompt == "sim:/DCIM/100MEDIA [DJI_0001.JPG]> ", "stop unloads the video")
        #expect(run("play DJI_0003.MP4") == .success)
        #expect(interpreter.prompt.hasPrefix("sim:/DCIM/100MEDIA [DJI_0003.MP4] ▶ 0:0"))

        #expect(run("close") == .success)
        #expect(!interpreter.playback.isLoaded && interpreter.loadedVideo == nil)
        #expect(interpreter.prompt == "(no camera)> ")
        #expect(run("open sim:; cd DCIM/100MEDIA") == .success)
        #expect(interpreter.prompt == "sim:/DCIM/100MEDIA> ")
        #expect(run("status --json") == .success)
        #expect(output.lines.last == #"{"state":"unloaded"}"#)

        #expect(run("play DJI_0005.MP4") == .success)
        #expect(run("open sim:") == .success)
        #expect(!interpreter.playback.isLoaded, "opening another camera ends playback")
        #expect(run("play DCIM/100MEDIA/DJI_0005.MP4; quit") == .quit)
        #expect(!interpreter.playback.isLoaded, "quit ends playback")
    }

    @Test func theASCIIPromptOutsideAUTF8Locale() throws {
        let (interpreter, output) = Self.makeInterpreter(unicode: false)
        try interpreter.open(.simulator(path: nil))
        #expect(interpreter.run(line: "cd DCIM/100MEDIA; play DJI_0003.MP4; pause; seek 2.4; status") == .success)
        #expect(interpreter.prompt == "sim:/DCIM/100MEDIA [DJI_0003.MP4] || 0:02.4/0:03> ")
        // The status line, before the telemetry line of the demo clip's .SRT.
        let status = output.lines.last { $0.hasPrefix("DJI_0003.MP4 ") }
        #expect(status?.hasPrefix("DJI_0003.MP4 || paused 0:02.4/0:03.0  frame 72/90 at 0:02.40, decoded from keyframe #2 at 0:02.00") == true)
        #expect(status?.hasSuffix("last seek 0:02.40 -> frame 72") == true, "\(output.lines)")
        #expect(interpreter.run(line: "pause; resume") == .success)
        #expect(interpreter.prompt.hasPrefix("sim:/DCIM/100MEDIA [DJI_0003.MP4] > 0:0"))
        #expect(interpreter.run(line: "stop") == .success)
        #expect(interpreter.prompt == "sim:/DCIM/100MEDIA [DJI_0003.MP4]> ")
    }

    @Test func thePlayerSetting() throws {
        #expect(run("set player") == .success)
        #expect(output.lines.last == "player none")
        #expect(run("set player mpv; set player") == .success)
        #expect(output.lines.last == "player mpv")
        #expect(run("set player off; set player") == .success)
        #expect(output.lines.last == "player none")
        #expect(run("set player vlc") == .failure)
        #expect(output.errors.last == "error: set: player takes auto, mpv or none")
    }

    @Test func aFileThatIsNotReallyAVideoFailsClearly() throws {
        let card = try makeCardFolder()
        #expect(run("open dir:\(card.path); cd DCIM/100MEDIA") == .success)
        #expect(run("play DJI_0003.MP4") == .failure)
        let error = try #require(output.errors.last)
        #expect(error.hasPrefix("error: play: cannot read DJI_0003.MP4 as a video: "), "\(error)")
        #expect(!error.contains("\n"))
        #expect(!interpreter.playback.isLoaded)
    }
}

/// Playback through the built binary in a script: no player window unless asked, JSON on standard output,
/// honest exit statuses.
@Suite(.enabled(if: ShellBinary.exists, "needs the built mediashell binary"), .tags(.process), .notInFastRun)
struct PlaybackScriptTests {
    @Test func aScriptSeeksAndPrintsTheStatusAsJSON() throws {
        let result = try ShellBinary.run(
            ["--camera", "sim:", "-c", "cd DCIM/100MEDIA; play DJI_0005.MP4; seek 1.5; status --json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.timedOut)
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        let line = try #require(result.outputLines.last)
        let status = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(status["media"] as? String == "DJI_0005.MP4" && status["orientation"] as? String == "portrait")
        let seek = try #require(status["lastSeek"] as? [String: Any])
        #expect(seek["landed"] as? Double == 1.48 && seek["frameIndex"] as? Int == 37)
        let from = try #require(seek["decodedFrom"] as? [String: Any])
        #expect(from["keyframe"] as? Int == 1 && from["frameIndex"] as? Int == 25)
        #expect(status["player"] == nil, "no player window in a script unless asked")
        #expect(result.outputLines.dropLast().last == "seek 0:01.50: frame 37 of 50 at 0:01.48, decoded from keyframe #1 at 0:01.00")
    }

    @Test func mpvAskedForButNotInstalledIsAWarning() throws {
        let empty = try TemporaryFolder("msh-nopath")
        let result = try ShellBinary.run(
            ["--camera", "sim:", "-c", "set player mpv; play DCIM/100MEDIA/DJI_0003.MP4; status --json"],
            environment: ["PATH": empty.path])
        #expect(result.status == 0, "a missing player does not fail the script")
        #expect(result.errorLines == ["-c:1: warning: play: mpv is not installed; playback goes on without a player"])
        #expect(result.outputLines.first == "playing DJI_0003.MP4 (0:03.0, 30 fps, 640x360 landscape)")
    }

    @Test func aFailingPlaybackCommandStopsTheScript() throws {
        let result = try ShellBinary.run(["--camera", "sim:", "-c", "cd DCIM/100MEDIA\nplay DJI_0001.JPG\nls"])
        #expect(result.status == 1)
        #expect(result.errorLines == ["-c:2: error: play: DJI_0001.JPG is not a video (play takes MP4 and MOV files)"])
        #expect(result.standardOutput.isEmpty, "the script stopped at the failure")
        let piped = try ShellBinary.run(["--camera", "sim:"], input: "seek 1\n")
        #expect(piped.status == 1)
        #expect(piped.errorLines == ["stdin:1: error: seek: no video is loaded: play NAME first"])
    }
}

/// mpv through the shell, with no video or audio output: a clip made with ffmpeg on a `dir:` card, played
/// with `set player mpv`; `seek 3` then `status` reports mpv's own position on the keyframe, and `close`,
/// `open` and `quit` leave no mpv process. Enabled only when mpv and ffmpeg are on PATH.
@Suite(
    .serialized,
    .enabled(if: Tool.find("mpv") != nil && Tool.find("ffmpeg") != nil, "needs mpv and ffmpeg"), .tags(.process), .notInFastRun)
struct PlaybackWithMPVTests {
    /// A unique argument, so that `pgrep -f` finds this test's mpv and no other.
    let marker = "--title=mediashell-test-\(UUID().uuidString)"
    let card: TemporaryFolder

    init() throws {
        card = try TemporaryFolder("msh-mpv")
        try FileManager.default.createDirectory(
            atPath: card.path + "/DCIM/100MEDIA", withIntermediateDirectories: true)
        // 8 s, 30 fps, a keyframe each second: long enough that mpv is still showing it at 3 s.
        let ffmpeg = try ShellBinary.runProgram(try #require(Tool.find("ffmpeg")), [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "8",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-keyint_min", "30", "-sc_threshold", "0",
            "-pix_fmt", "yuv420p", card.path + "/DCIM/100MEDIA/CLIP0001.MP4",
        ], timeout: 60)
        try #require(ffmpeg.status == 0, "ffmpeg failed: \(ffmpeg.standardError)")
    }

    static func isGone(_ pid: Int32) -> Bool { kill(pid, 0) != 0 && errno == ESRCH }

    /// Processes whose command line holds `marker` (pgrep exits 1 when there are none).
    func processes() throws -> [String] {
        let result = try ShellBinary.runProgram(try #require(Tool.find("pgrep")), ["-f", "--", marker], timeout: 10)
        return result.outputLines
    }

    @Test func seekThenStatusReportsMPVsPositionAndQuitEndsIt() throws {
        let result = try ShellBinary.run(
            [
                "--camera", "dir:\(card.path)", "-c",
                "set player mpv; cd DCIM/100MEDIA; play CLIP0001.MP4; pause; seek 3; status; status --json; quit",
            ],
            environment: ["MEDIASHELL_MPV_ARGS": "--no-config --vo=null --ao=null \(marker)"], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        #expect(result.outputLines.first == "playing CLIP0001.MP4 (0:08.0, 30 fps, 320x240 landscape) in mpv")
        #expect(result.outputLines.contains("seek 0:03.00: frame 90 of 240 at 0:03.00, keyframe #3"))
        let line = try #require(result.outputLines.last)
        let status = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let player = try #require(status["player"] as? [String: Any], "\(line)")
        #expect(player["name"] as? String == "mpv" && player["running"] as? Bool == true)
        let position = try #require(player["position"] as? Double, "mpv reported no position: \(line)")
        #expect(abs(position - 3.0) <= 1.0 / 30, "mpv is at \(position) s after seek 3")
        #expect(status["state"] as? String == "paused")
        #expect(result.outputLines.dropLast().last?.hasSuffix("in mpv at 0:03.0") == true)
        let left = try processes()
        #expect(left.isEmpty, "an mpv outlived the shell: \(left)")
    }

    @Test func aPlayerThatDoesNotStartIsAWarningAndPlaybackGoesOn() throws {
        let result = try ShellBinary.run(
            ["--camera", "dir:\(card.path)", "-c", "set player mpv; cd DCIM/100MEDIA; play CLIP0001.MP4; pause; seek 3"],
            environment: ["MEDIASHELL_MPV_ARGS": "--no-config --vo=null --ao=null --no-such-option \(marker)"],
            timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.errorLines.count == 1)
        let warning = try #require(result.errorLines.first)
        #expect(warning.hasPrefix("-c:1: warning: play: mpv exited at start"), "\(warning)")
        #expect(warning.hasSuffix("; playback goes on without it"))
        #expect(result.outputLines.last == "seek 0:03.00: frame 90 of 240 at 0:03.00, keyframe #3")
        #expect(try processes().isEmpty)
    }

    @Test func closeOpenAndQuitEndThePlayer() throws {
        var settings = Settings()
        settings.player = .mpv
        let output = CapturedOutput()
        let interpreter = Interpreter(
            output: output, interrupt: ScriptedInterrupt(), settings: settings,
            playbackEnvironment: PlaybackEnvironment(mpvArguments: ["--no-config", "--vo=null", "--ao=null", marker]))
        try interpreter.open(.folder(path: card.path))
        let open = "open dir:\(card.path); cd DCIM/100MEDIA"
        #expect(interpreter.run(line: "cd DCIM/100MEDIA; play CLIP0001.MP4") == .success, "\(output.errors)")
        #expect(output.lines.last?.hasSuffix(" in mpv") == true, "\(output.lines) \(output.errors)")
        let first = try #require(interpreter.playerProcessID)
        #expect(!Self.isGone(first))
        #expect(interpreter.run(line: "close") == .success)
        #expect(Self.isGone(first), "mpv (pid \(first)) still runs after close")

        #expect(interpreter.run(line: "\(open); play CLIP0001.MP4") == .success)
        let second = try #require(interpreter.playerProcessID)
        #expect(second != first && !Self.isGone(second))
        #expect(interpreter.run(line: "open sim:") == .success)
        #expect(Self.isGone(second), "mpv (pid \(second)) still runs after opening another camera")

        #expect(interpreter.run(line: "\(open); play CLIP0001.MP4; stop") == .success)
        #expect(interpreter.playerProcessID == nil, "stop closes the player")
        #expect(interpreter.run(line: "play") == .success)
        let third = try #require(interpreter.playerProcessID)
        #expect(interpreter.run(line: "quit") == .quit)
        #expect(Self.isGone(third), "mpv (pid \(third)) still runs after quit")
        #expect(try processes().isEmpty)
        #expect(output.errors.isEmpty, "\(output.errors)")
    }
}

/// A program on PATH.
enum Tool {
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// Playback at a real prompt (a pty driven by `expect`): the prompt shows the state, with ASCII symbols
/// outside a UTF-8 locale, and Ctrl-D ends the player with the shell.
@Suite(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: Expect.path),
    "needs the built mediashell binary and expect"), .tags(.process), .notInFastRun)
struct PlaybackPromptSessionTests {
    let home: TemporaryFolder

    init() throws {
        home = try TemporaryFolder("msh-pty-play")
    }

    private func spawn(lang: String, extra: String = "") -> String {
        "spawn -noecho env -u DISPLAY -u WAYLAND_DISPLAY TERM=xterm LANG=\(lang) HOME=\(home.path) "
            + "XDG_STATE_HOME=\(home.path)/state \(extra) {\(ShellBinary.path)} --camera sim:"
    }

    @Test func thePromptFollowsPlaybackAndCtrlDQuits() throws {
        for (lang, paused) in [("C.UTF-8", #"[^|\s]+"#), ("C", #"\|\|"#)] {
            let result = try Expect.run(
                """
                \(spawn(lang: lang))
                must {sim:/> $} 2
                send "cd DCIM/100MEDIA; play DJI_0003.MP4\\r"
                must {playing DJI_0003\\.MP4 \\(0:03\\.0, 30 fps, 640x360 landscape\\); no player window \\(no display\\)} 3
                send "pause; seek 2.4\\r"
                must {frame 72 of 90 at 0:02\\.40, decoded from keyframe #2 at 0:02\\.00} 4
                must {sim:/DCIM/100MEDIA \\[DJI_0003\\.MP4\\] \(paused) 0:02\\.4/0:03> $} 5
                send "close\\r"
                must {\\(no camera\\)> $} 6
                send "\\004"
                expect eof
                lassign [wait] pid spawnid oserror status
                if {$status != 0} { puts "Ctrl-D left with status $status"; exit 7 }
                exit 0
                """)
            #expect(result.status == 0, "LANG=\(lang): \(result.standardOutput)")
        }
    }

    @Test(.enabled(if: Tool.find("mpv") != nil && Tool.find("pgrep") != nil, "needs mpv"))
    func ctrlDEndsThePlayer() throws {
        let marker = "--title=mediashell-pty-\(UUID().uuidString)"
        let result = try Expect.run(
            """
            \(spawn(lang: "C.UTF-8", extra: "{MEDIASHELL_MPV_ARGS=--no-config --vo=null --ao=null \(marker)}"))
            must {sim:/> $} 2
            send "set player mpv; cd DCIM/100MEDIA; play DJI_0003.MP4; pause\\r"
            must {landscape\\) in mpv} 3
            must {paused DJI_0003\\.MP4} 4
            must {\\[DJI_0003\\.MP4\\] [^|\\s]+ 0:0[0-9.]+/0:03> $} 5
            if {[catch {exec pgrep -f -- {\(marker)}}]} { puts "no mpv while playing"; exit 6 }
            send "\\004"
            expect eof
            lassign [wait] pid spawnid oserror status
            if {$status != 0} { puts "Ctrl-D left with status $status"; exit 7 }
            if {![catch {exec pgrep -f -- {\(marker)}} found]} { puts "mpv outlived the shell: $found"; exit 8 }
            exit 0
            """)
        #expect(result.status == 0, "\(result.standardOutput)")
    }
}
