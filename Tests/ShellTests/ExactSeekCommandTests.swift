import Foundation
import MediaManager
import TestSupport
import Testing

@testable import Shell

/// Issue 42 at the prompt: `seek POS` lands on the frame shown at POS and says which keyframe it was decoded
/// from, `seek --key POS` keeps the keyframe seek, `seek --frame N` and `frame N` go to frame N (counted from
/// 0, as `step` and `status` count), and `status` says the same frame. On the demo card's DJI_0003.MP4:
/// 3 s at 30 fps, a keyframe each second.
@Suite struct ExactSeekCommandTests {
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        (interpreter, output) = PlaybackCommandTests.makeInterpreter(unicode: true)
        try interpreter.open(.simulator(path: nil))
        #expect(interpreter.run(line: "cd DCIM/100MEDIA; play DJI_0003.MP4; pause") == .success)
    }

    /// The last line `line` printed, the `.SRT` telemetry line `status` adds for the demo clip left out.
    private func said(_ line: String) -> String? {
        #expect(interpreter.run(line: line) == .success, "\(line): \(output.errors)")
        return output.lines.last { !$0.hasPrefix("telemetry: ") }
    }

    /// The last line printed, as the JSON object `status --json` prints.
    private func statusJSON() throws -> [String: Any] {
        #expect(interpreter.run(line: "status --json") == .success)
        let line = try #require(output.lines.last)
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    @Test func aSeekLandsOnTheFrameAndStatusSaysItsKeyframe() throws {
        #expect(said("seek 1.5") == "seek 0:01.50: frame 45 of 90 at 0:01.50, decoded from keyframe #1 at 0:01.00")
        #expect(said("status")?.contains("  frame 45/90 at 0:01.50, decoded from keyframe #1 at 0:01.00  ") == true, "\(output.lines)")
        var status = try statusJSON()
        #expect(status["frameIndex"] as? Int == 45 && status["position"] as? Double == 1.5)
        let from = try #require(status["decodedFrom"] as? [String: Any], "\(status)")
        #expect(from["keyframe"] as? Int == 1 && from["frameIndex"] as? Int == 30 && from["position"] as? Double == 1.0)

        #expect(said("seek +0.5") == "seek 0:02.00: frame 60 of 90 at 0:02.00, keyframe #2")
        #expect(said("seek -0.1") == "seek 0:01.90: frame 57 of 90 at 0:01.90, decoded from keyframe #1 at 0:01.00")
        #expect(said("seek 50%") == "seek 0:01.50: frame 45 of 90 at 0:01.50, decoded from keyframe #1 at 0:01.00")
        #expect(said("seek --key 2.4") == "seek 0:02.40: landed on keyframe #2 at 0:02.00 (frame 60)")
        status = try statusJSON()
        #expect(status["frameIndex"] as? Int == 60)
    }

    @Test func frameAndSeekFrameGoToFrameNCountedLikeStepAndStatus() throws {
        #expect(said("frame 10") == "frame 10 of 90 at 0:00.33, decoded from keyframe #0 at 0:00.00")
        #expect(said("status")?.contains("  frame 10/90 at 0:00.33, decoded from keyframe #0 at 0:00.00  ") == true)
        #expect(said("step 2") == "step 2: frame 12 of 90 at 0:00.40, decoded from keyframe #0 at 0:00.00")
        #expect(said("status")?.contains("  frame 12/90 at 0:00.40, ") == true)
        #expect(said("seek --frame 75") == "frame 75 of 90 at 0:02.50, decoded from keyframe #2 at 0:02.00")
        #expect(try statusJSON()["frameIndex"] as? Int == 75)
        #expect(said("frame 0") == "frame 0 of 90 at 0:00.00, keyframe #0")
        #expect(said("frame 90") == "frame 90 is past the last frame: frame 89 of 90 at 0:02.97, decoded from keyframe #2 at 0:02.00")

        #expect(interpreter.run(line: "seek --frame 1.5") == .failure)
        #expect(output.errors.last == "error: seek: --frame takes a frame number (0 is the first frame), not '1.5'")
        #expect(interpreter.run(line: "seek --key --frame 3") == .failure)
        #expect(output.errors.last == "error: seek: --key and --frame do not go together")
        #expect(interpreter.run(line: "frame x") == .failure)
        #expect(output.errors.last == "error: frame: N must be a whole number, not 'x'")
    }
}

/// Issue 42's clip through `dir:`: 60 s at 25 fps with a keyframe every 10 s. Three `seek +5` from 20 land at
/// 25, 30 and 35; `seek 0:25.5` shows frame 637 at 25.48 s.
@Suite(.enabled(if: ExternalTool.ffmpeg != nil, "needs ffmpeg"), .tags(.process), .notInFastRun)
struct ExactSeekOnACardTests {
    @Test func seekPlusFiveMovesFromWhereItIs() throws {
        let card = try TemporaryFolder("msh-exact-seek")
        try FileManager.default.createDirectory(atPath: card.path + "/DCIM/100MEDIA", withIntermediateDirectories: true)
        try #require(ExternalTool.ffmpeg).run([
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=duration=60:size=320x240:rate=25", "-c:v", "libx264",
            "-preset", "ultrafast", "-g", "250", "-keyint_min", "250", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
            card.path + "/DCIM/100MEDIA/DJI_0006.MP4",
        ])
        let (interpreter, output) = PlaybackCommandTests.makeInterpreter(unicode: true)
        #expect(interpreter.run(line: "open dir:\(card.path); cd DCIM/100MEDIA; play DJI_0006.MP4; pause") == .success)
        output.reset()
        #expect(interpreter.run(line: "seek 20; seek +5; seek +5; seek +5; seek 0:25.5; status") == .success, "\(output.errors)")
        #expect(Array(output.lines.prefix(5)) == [
            "seek 0:20.00: frame 500 of 1500 at 0:20.00, keyframe #2",
            "seek 0:25.00: frame 625 of 1500 at 0:25.00, decoded from keyframe #2 at 0:20.00",
            "seek 0:30.00: frame 750 of 1500 at 0:30.00, keyframe #3",
            "seek 0:35.00: frame 875 of 1500 at 0:35.00, decoded from keyframe #3 at 0:30.00",
            "seek 0:25.50: frame 637 of 1500 at 0:25.48, decoded from keyframe #2 at 0:20.00",
        ])
        let status = try #require(output.lines.last)
        #expect(status.hasPrefix("DJI_0006.MP4 ‖ paused 0:25.5/1:00.0  frame 637/1500 at 0:25.48, decoded from keyframe #2 at 0:20.00  25 fps"), "\(status)")
        #expect(interpreter.prompt.hasSuffix("‖ 0:25.5/1:00> "), "\(interpreter.prompt)")
    }
}
