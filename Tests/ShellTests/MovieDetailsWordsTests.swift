import Foundation
import TestSupport
import Testing

@testable import Shell
import Words

/// Issue 27, what `ls -l` and `info` say of movies: a variable-rate clip's rate is said to vary (`info`) and
/// its average is ffprobe's avg_frame_rate (`ls -l`, `info`, `--json`); a slow-motion edit's clip lasts as
/// long as it plays.
@Suite(
    "Movie details in ls -l and info",
    .enabled(if: ExternalTool.ffmpeg != nil && ExternalTool.ffprobe != nil, "needs ffmpeg and ffprobe"), .tags(.process), .notInFastRun)
struct MovieDetailsWordsTests {
    let card: TemporaryFolder
    let folder = "DCIM/100TEST"

    init() throws {
        card = try TemporaryFolder("msh-movie-words")
        try FileManager.default.createDirectory(atPath: card.path + "/" + folder, withIntermediateDirectories: true)
    }

    private func ffmpeg(_ arguments: [String]) throws {
        try #require(ExternalTool.ffmpeg).run(["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x64:rate=30"] + arguments)
    }

    /// Runs `commands` on the card through `dir:` and returns what was printed.
    private func run(_ commands: String) throws -> [String] {
        let (interpreter, output, _) = makeInterpreter()
        #expect(interpreter.run(line: "open dir:\(card.path); cd \(folder)") == .success)
        output.reset()
        #expect(interpreter.run(line: commands) == .success, "\(output.errors)")
        return output.lines
    }

    @Test func aVariableRateClipSaysItsRangeAndFFprobesAverage() throws {
        let path = card.path + "/" + folder + "/VFR.MP4"
        // 2 s at 30 fps, then every third frame 0.1 s apart: 2 s at 10 fps.
        try ffmpeg([
            "-t", "4", "-vf", "select='lt(n,60)+gte(n,60)*not(mod(n,3))',setpts='if(lt(N,60),N/30,2+(N-60)/10)/TB'",
            "-fps_mode", "vfr", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", path,
        ])
        let probed = String(decoding: try #require(ExternalTool.ffprobe).run([
            "-v", "quiet", "-select_streams", "v:0", "-show_entries", "stream=avg_frame_rate", "-of", "csv=p=0", path,
        ]), as: UTF8.self)
        let ratio = probed.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "/").compactMap { Double($0) }
        try #require(ratio.count == 2)
        let average = FileListing.rate(ratio[0] / ratio[1])

        let info = try run("info VFR.MP4")
        #expect(info.contains("frame rate:  variable, 10-30 fps (average \(average))"), "\(info)")
        let listed = try #require(try run("ls -l VFR.MP4").first)
        #expect(listed.contains(" \(average) fps "), "ls -l shows ffprobe's average: \(listed)")

        let json = try #require(try run("info --json VFR.MP4").joined(separator: "\n").data(using: .utf8))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["fpsRange"] as? [Double] == [10, 30])
        #expect(abs((object["fps"] as? Double ?? 0) - ratio[0] / ratio[1]) < 0.001)
    }

    @Test func aConstantRateClipHasNoRange() throws {
        try ffmpeg(["-t", "1", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", card.path + "/" + folder + "/CFR.MP4"])
        let info = try run("info CFR.MP4")
        #expect(info.contains("frame rate:  30 fps"), "\(info)")
        let json = try #require(try run("info --json CFR.MP4").joined(separator: "\n").data(using: .utf8))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["fpsRange"] == nil)
    }

    @Test func aTruncatedClipKeepsItsRateAndSaysWhereItStops() throws {
        let whole = card.path + "/whole.mp4"
        try ffmpeg([
            "-t", "4", "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-x264-params", "bframes=2", "-pix_fmt",
            "yuv420p", "-movflags", "+faststart", whole,
        ])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        try bytes.prefix(bytes.count * 7 / 10).write(to: URL(fileURLWithPath: card.path + "/" + folder + "/CUT.MP4"))
        let info = try run("info CUT.MP4")
        #expect(info.contains("frame rate:  30 fps"), "the rate it was recorded at, not of what is left: \(info)")
        let truncated = try #require(info.first { $0.hasPrefix("truncated:") }, "\(info)")
        #expect(truncated.range(of: #"^truncated: +plays to 0:0\d\.\d of 0:04\.0 \(\d+ of 120 frames; "#, options: .regularExpression) != nil, "\(truncated)")
    }

    @Test func aSeekToFFprobesFirstShownKeyframeLandsOnIt() throws {
        // 25 fps cut at 0.3 s: the edit starts 0.02 s before the first whole frame; ffprobe (and mpv) start
        // the video there, so the first shown keyframe is at 0.68 s.
        let source = card.path + "/source.mp4"
        try #require(ExternalTool.ffmpeg).run([
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x64:rate=25", "-t", "4", "-c:v", "libx264",
            "-preset", "ultrafast", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0", "-pix_fmt", "yuv420p", source,
        ])
        try #require(ExternalTool.ffmpeg).run(["-v", "error", "-y", "-ss", "0.3", "-i", source, "-c", "copy", card.path + "/" + folder + "/CUT.MP4"])
        let keyframes = String(decoding: try #require(ExternalTool.ffprobe).run([
            "-v", "quiet", "-select_streams", "v:0", "-skip_frame", "nokey", "-show_entries", "frame=pts_time",
            "-of", "csv=p=0", card.path + "/" + folder + "/CUT.MP4",
        ]), as: UTF8.self)
        let first = try #require(keyframes.split(separator: "\n").first.flatMap { Double($0) })
        #expect(abs(first - 0.68) < 0.001, "ffprobe's first shown keyframe: \(first)")

        let lines = try run("set player none; play CUT.MP4; pause; seek 0.68; status --json")
        #expect(lines.contains("seek 0:00.68: frame 17 of 92 at 0:00.68, keyframe #0"), "\(lines)")
        let json = try #require(lines.last?.data(using: .utf8))
        let status = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let seek = try #require(status["lastSeek"] as? [String: Any])
        #expect(abs((seek["landed"] as? Double ?? -1) - first) < 0.001, "\(seek)")
        #expect(status["framesPerSecond"] as? Double == 25)
    }

    @Test func aSlowMotionEditShowsHowLongItPlays() throws {
        let path = card.path + "/" + folder + "/SLOWMO.MP4"
        try ffmpeg([
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "2", "-c:v", "libx264", "-preset",
            "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", path,
        ])
        // 2 s of media at rate 0.5 over 4 s; the movie header says 2 s, as if the rate were 1.
        try EditListWriter.rewrite(path, movieDuration: 2000, entries: [.init(duration: 4000, mediaTime: 0, rate: 0x8000)])
        let listed = try #require(try run("ls -l SLOWMO.MP4").first)
        #expect(listed.contains(" 0:04 64x64 30 fps "), "\(listed)")
        let info = try run("info SLOWMO.MP4")
        #expect(info.contains("duration:    0:04"), "\(info)")
        #expect(info.contains("frame rate:  30 fps"), "\(info)")
    }
}
