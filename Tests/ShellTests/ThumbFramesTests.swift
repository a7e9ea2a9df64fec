import Foundation
import MediaManager
import TestSupport
import Testing

@testable import Shell

/// `thumb --frames N` (issue 42): N pictures across a clip, the keyframes nearest to the middles of N equal
/// parts of its timeline, each titled with its time: ffprobe's keyframe times are the oracle, on a 10 s clip
/// made at run time with a keyframe every second.
@Suite(.enabled(if: ffmpegIsInstalled, "needs ffmpeg and ffprobe"), .tags(.process), .notInFastRun)
struct ThumbFramesTests {
    let card: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        card = try TemporaryFolder("msh-frames")
        try FileManager.default.createDirectory(atPath: card.path + "/DCIM/100MEDIA", withIntermediateDirectories: true)
        try Self.tool([
            "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=25", "-t", "10", "-c:v",
            "libx264", "-preset", "ultrafast", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0", "-pix_fmt",
            "yuv420p", card.path + "/DCIM/100MEDIA/CLIP.MP4",
        ])
        try card.write("DCIM/100MEDIA/PHOTO.JPG", try demoBytes("photo_landscape.jpg"))
        (interpreter, output, _) = makeInterpreter()
        interpreter.environment = ["TERM": "xterm-256color", "COLORTERM": "truecolor", "PATH": "/usr/bin:/bin"]
        try interpreter.open(.folder(path: card.path))
        #expect(interpreter.run(line: "cd DCIM/100MEDIA") == .success)
        output.reset()
    }

    @discardableResult
    static func tool(_ arguments: [String]) throws -> String {
        let result = try ShellBinary.runProgram("/usr/bin/env", arguments, timeout: 60)
        try #require(!result.timedOut && result.status == 0, "\(arguments[0]) failed: \(result.standardError)")
        return result.standardOutput
    }

    /// The keyframe times ffprobe gives, and the ones nearest to the middles of `count` equal parts.
    func expectedTimes(count: Int) throws -> [String] {
        let text = try Self.tool([
            "ffprobe", "-v", "quiet", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0",
            card.path + "/DCIM/100MEDIA/CLIP.MP4",
        ])
        var keyframes: [Double] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ",")
            guard fields.count == 2, fields[1].hasPrefix("K"), let time = Double(fields[0]) else { continue }
            keyframes.append(time)
        }
        #expect(keyframes.count == 10, "\(keyframes)")
        var chosen: [Double] = []
        for part in 0..<count {
            let target = (Double(part) + 0.5) * 10 / Double(count)
            if let nearest = keyframes.min(by: { abs($0 - target) < abs($1 - target) }), !chosen.contains(nearest) {
                chosen.append(nearest)
            }
        }
        return chosen.sorted().map { String(format: "0:%04.1f", $0) }
    }

    @Test func theFramesAreTheKeyframesAcrossTheClip() throws {
        #expect(interpreter.run(line: "thumb --frames 4 CLIP.MP4") == .success, "\(output.errors)")
        let times = try expectedTimes(count: 4)
        #expect(times == ["0:01.0", "0:04.0", "0:06.0", "0:09.0"])
        #expect(output.lines.first == "CLIP.MP4")
        #expect(output.lines.dropFirst().map { String($0.prefix(9)) } == times.map { "  \($0):" }, "\(output.lines)")
        #expect(output.lines.dropFirst().allSatisfy { $0.contains(": frame 96x64, ") })
    }

    @Test func drawnTheyAreASheetTitledWithTheirTimes() throws {
        output.columns = 100
        #expect(interpreter.run(line: "set images blocks; thumb --frames 4 CLIP.MP4") == .success, "\(output.errors)")
        let plain = strippingEscapes(output.standardOutput).split(separator: "\n").map(String.init)
        // Four tiles of at least 18 columns fill 100, 2 apart: 23 each.
        #expect(plain.contains(nameRow(try expectedTimes(count: 4), tile: 23)), "\(plain)")
        #expect(plain.contains { halfBlocks($0) == 23 * 4 }, "each picture fills its tile")
    }

    @Test func whatItRefuses() throws {
        for (line, error) in [
            ("thumb --frames 3 PHOTO.JPG", "error: thumb: --frames draws pictures across a video: PHOTO.JPG is not one"),
            ("thumb --frames 17 CLIP.MP4", "error: thumb: --frames 17: give a number of pictures from 1 to 16"),
            ("thumb --frames 3 --save /tmp CLIP.MP4", "error: thumb: --frames draws: no --save"),
        ] {
            output.reset()
            #expect(interpreter.run(line: line) == .failure)
            #expect(output.errors == [error], "\(line)")
        }
        output.reset()
        interpreter.environment["PATH"] = "/nonexistent"
        #expect(interpreter.run(line: "thumb --frames 3 CLIP.MP4") == .failure)
        #expect(output.errors.first?.contains("with ffmpeg, which is not on the PATH") == true, "\(output.errors)")
    }
}
