import Foundation
import TestSupport
import Testing

/// Live view (issue 42) on both sides: gphoto2's `--capture-preview` (libgphoto2's EOS and Nikon paths,
/// written by nobody here) against `serve --persona canon-eos|nikon`, and our `liveview` against the same
/// personas. Each persona frame is a JPEG naming its number in a comment, so the frames a client got can be
/// told apart (MediaManagerTests.LiveViewTests checks none comes twice).
@Suite(.serialized, .tags(.process), .notInFastRun) struct LiveViewInteropTests {
    typealias Fixture = PersonaInteropTests.Fixture

    @Test(.enabled(if: PersonaInteropTests.gphoto2 != nil), arguments: [("canon-eos", "100CANON"), ("nikon", "100NIKON")])
    func gphoto2GetsAPreviewFromThePersona(persona: String, folder: String) throws {
        let fixture = try Fixture(folder: folder)
        let server = try ServeProcess(arguments: ["--writable", "--persona", persona, fixture.card])
        defer { _ = server.stop() }
        let result = try fixture.gphoto2(server.port, ["--capture-preview"], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)\n\(result.stdout)")
        let saved = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.work + "/capture_preview.jpg")))
        #expect(saved.starts(with: [0xFF, 0xD8]) && liveViewFrameNumber(saved) != nil, "\(saved.prefix(40))")
    }

    @Test(arguments: [("canon-eos", "100CANON"), ("nikon", "100NIKON")])
    func ourLiveViewSavesThePersonasFramesAndCountsThem(persona: String, folder: String) throws {
        let fixture = try Fixture(folder: folder)
        let server = try ServeProcess(arguments: ["--writable", "--persona", persona, fixture.card])
        defer { _ = server.stop() }
        var numbers: [Int] = []
        for index in 1...3 {
            let result = try fixture.mediashell(server.port, "liveview --save \(fixture.work)/frame\(index).jpg")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("saved \(fixture.work)/frame\(index).jpg (320x240, "), "\(result.stdout)")
            let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(fixture.work)/frame\(index).jpg")))
            numbers += [liveViewFrameNumber(jpeg)].compactMap { $0 }
        }
        #expect(numbers.count == 3, "each saved frame is the persona's JPEG as it sent it")
        let run = try fixture.mediashell(server.port, "liveview --count 12")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 13 && lines.prefix(12).allSatisfy { $0.contains(": 320x240, ") }, "\(lines)")
        #expect(lines.last?.hasPrefix("liveview: 12 frames in ") == true)
    }

    @Test func aCameraWithoutLiveViewSaysSo() throws {
        let fixture = try Fixture(folder: "100MEDIA")
        let server = try ServeProcess(arguments: [fixture.card])
        defer { _ = server.stop() }
        let result = try fixture.mediashell(server.port, "liveview --count 1")
        #expect(result.status == 1)
        #expect(result.stderr.contains("liveview: this camera has no live view (standard PTP defines none"), "\(result.stderr)")
        let script = try fixture.mediashell(server.port, "liveview")
        #expect(script.stderr.contains("say when to stop: --count N or --seconds S"), "\(script.stderr)")
    }
}
