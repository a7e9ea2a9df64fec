import Foundation
import Imaging
import TestSupport
import Testing

@testable import Shell

/// Issue 42 at the prompt: `seek --frame N` (or `seek POS`) then a bare `thumb` shows frame N itself, decoded
/// from the keyframe before it, not that keyframe. The picture `thumb --save` writes is compared with
/// ffmpeg's own frame N of the file (made a JPEG the same way): the same, and unlike the frames beside it and
/// the keyframe it was decoded from. On issue 42's clip through `dir:`: 60 s at 25 fps, a keyframe every 10 s.
@Suite(.enabled(if: ExternalTool.ffmpeg != nil, "needs ffmpeg"), .tags(.process), .notInFastRun)
struct PausedFramePictureTests {
    let card: TemporaryFolder
    let path: String
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        card = try TemporaryFolder("msh-paused-frame")
        try FileManager.default.createDirectory(atPath: card.path + "/DCIM/100MEDIA", withIntermediateDirectories: true)
        path = card.path + "/DCIM/100MEDIA/DJI_0006.MP4"
        try #require(ExternalTool.ffmpeg).run([
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=duration=60:size=320x240:rate=25", "-c:v", "libx264",
            "-preset", "ultrafast", "-g", "250", "-keyint_min", "250", "-sc_threshold", "0", "-pix_fmt", "yuv420p", path,
        ])
        (interpreter, output) = PlaybackCommandTests.makeInterpreter(unicode: true)
        #expect(interpreter.run(line: "open dir:\(card.path); cd DCIM/100MEDIA; play DJI_0006.MP4; pause") == .success)
        output.reset()
    }

    /// The pixels of ffmpeg's frame `number` of the clip, made a JPEG as ours is.
    func reference(frame number: Int) throws -> [UInt8] {
        let jpeg = try #require(ExternalTool.ffmpeg).run([
            "-v", "error", "-i", path, "-vf", "select=eq(n\\,\(number)),scale=w='min(320,iw)':h=-2", "-frames:v", "1",
            "-pix_fmt", "yuvj420p", "-q:v", "3", "-f", "mjpeg", "pipe:1",
        ])
        return try Self.pixels([UInt8](jpeg))
    }

    static func pixels(_ jpeg: [UInt8]) throws -> [UInt8] {
        try JPEGDecoder.decode(jpeg, limits: DecodeLimits(maxBytes: 16 << 20)).image.pixels
    }

    /// The mean difference of two pictures' bytes (0-255).
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    /// Runs `goTo`, then `thumb --save`, and checks the picture written is ffmpeg's frame `number`.
    func checkSavedPicture(after goTo: String, isFrame number: Int, decodedFrom keyframe: Int) throws {
        let saved = try TemporaryFolder("msh-paused-frame-save")
        #expect(interpreter.run(line: "\(goTo); thumb --save \(saved.path)") == .success, "\(output.errors)")
        let file = saved.path + "/DJI_0006.MP4.frame\(number).jpg"
        let said = try #require(output.lines.last)
        #expect(said.hasPrefix("DJI_0006.MP4: thumbnail 320x240 (frame \(number) at \(frameTime(number))), ") && said.hasSuffix(" -> \(file)"), "\(said)")
        let ours = try Self.pixels([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))
        let same = Self.difference(ours, try reference(frame: number))
        let others = try [number - 1, number + 1, keyframe].filter { (0..<1500).contains($0) && $0 != number }.map {
            Self.difference(ours, try reference(frame: $0))
        }
        #expect(same < 0.5, "\(goTo): frame \(number) differs from ffmpeg's by \(same) on average")
        #expect(others.allSatisfy { $0 > 1 }, "\(goTo): \(same) from ffmpeg's frame \(number), \(others) from 1 before, 1 after, keyframe")
    }

    /// Frame `number`'s time as the shell says it (25 fps).
    func frameTime(_ number: Int) -> String {
        let hundredths = number * 4
        return String(format: "%d:%02d.%02d", hundredths / 6000, hundredths / 100 % 60, hundredths % 100)
    }

    @Test func thumbWhilePausedShowsTheFrameItself() throws {
        #expect(interpreter.run(line: "seek --frame 637; thumb") == .success, "\(output.errors)")
        #expect(output.lines.last?.hasPrefix("DJI_0006.MP4: thumbnail 320x240 (frame 637 at 0:25.48), ") == true, "\(output.lines)")
        try checkSavedPicture(after: "seek --frame 637", isFrame: 637, decodedFrom: 500)
        try checkSavedPicture(after: "seek 0:25.5", isFrame: 637, decodedFrom: 500)
        try checkSavedPicture(after: "seek +5", isFrame: 762, decodedFrom: 750)
        try checkSavedPicture(after: "step -13", isFrame: 749, decodedFrom: 500)
        try checkSavedPicture(after: "frame 1499", isFrame: 1499, decodedFrom: 1250)
        try checkSavedPicture(after: "frame 1", isFrame: 1, decodedFrom: 0)
    }

    @Test func aNamedFileOrAPlayingVideoStillShowsTheThumbnail() throws {
        #expect(interpreter.run(line: "seek --frame 637; thumb DJI_0006.MP4") == .success, "\(output.errors)")
        #expect(output.lines.last?.contains("frame 637") == false, "\(output.lines)")
        #expect(interpreter.run(line: "resume; thumb") == .success, "\(output.errors)")
        #expect(output.lines.last?.hasPrefix("DJI_0006.MP4: thumbnail") == true && output.lines.last?.contains("frame") == false, "\(output.lines)")
    }

    @Test func theFrameIsDrawnTitledWithItsNumber() throws {
        #expect(interpreter.run(line: "set images blocks; frame 637") == .success, "\(output.errors)")
        output.reset()
        #expect(interpreter.run(line: "thumb") == .success, "\(output.errors)")
        let text = output.standardOutput
        #expect(text.contains("▀") || text.contains("▄"), "no picture drawn")
        #expect(text.contains("frame 637 at 0:25.48"), "\(text)")
    }
}
