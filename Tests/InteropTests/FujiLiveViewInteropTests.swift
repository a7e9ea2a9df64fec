import Foundation
import TestSupport
import Testing

/// Live view on a Fujifilm X body on Wi-Fi (issue 42) through the built binary: our `liveview` and
/// libgphoto2's Fuji Wi-Fi client (`--capture-preview`, which takes the port after the event port) against
/// `serve --persona fuji-x`, which streams its frames on Fuji's live-view socket (three consecutive ports,
/// the first chosen at run time). Each frame names its number in a JPEG comment: none twice, in order.
@Suite(.serialized, .tags(.process, .port), .notInFastRun) struct FujiLiveViewInteropTests {
    typealias Fixture = PersonaInteropTests.Fixture

    static func url(_ server: ServeProcess) -> String {
        "fuji:127.0.0.1:\(server.port):\(server.eventPort ?? 0):\(server.liveViewPort ?? 0)"
    }

    static func mediashell(_ fixture: Fixture, _ server: ServeProcess, _ commands: String) throws -> ProcessResult {
        try ProcessRunner.run(
            BuildProducts.mediashell, ["--camera", url(server), "--download-dir", fixture.work, "-c", commands],
            directory: fixture.work, environment: ["HOME": fixture.home, "LANG": "C"], timeout: 120)
    }

    @Test func ourLiveViewGetsEveryFrameOnceAndSavesOne() throws {
        let fixture = try Fixture(folder: "100_FUJI")
        let server = try ServeProcess(arguments: ["--persona", "fuji-x", fixture.card])
        defer { _ = server.stop() }
        var numbers: [Int] = []
        for index in 1...3 {
            let result = try Self.mediashell(fixture, server, "liveview --save \(fixture.work)/frame\(index).jpg")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("saved \(fixture.work)/frame\(index).jpg (320x240, "), "\(result.stdout)")
            let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(fixture.work)/frame\(index).jpg")))
            #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]), "the JPEG alone, without Fuji's header")
            numbers += [liveViewFrameNumber(jpeg)].compactMap { $0 }
        }
        #expect(numbers.count == 3, "each saved frame is the persona's JPEG as it sent it")
        let run = try Self.mediashell(fixture, server, "liveview --count 12")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 13 && lines.prefix(12).allSatisfy { $0.contains(": 320x240, ") }, "\(lines)")
        #expect(lines.last?.hasPrefix("liveview: 12 frames in ") == true)
    }

    @Test(.enabled(if: FujiPersonaInteropTests.gphoto2 != nil)) func gphoto2GetsAPreviewFromThePersona() throws {
        let fixture = try FujiPersonaInteropTests.Fixture()
        let server = try ServeProcess(arguments: ["--persona", "fuji-x", fixture.card])
        defer { _ = server.stop() }
        let result = try fixture.gphoto2(server, ["--capture-preview"], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)\n\(result.stdout)")
        let saved = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.work + "/capture_preview.jpg")))
        #expect(saved.starts(with: [0xFF, 0xD8]) && liveViewFrameNumber(saved) != nil, "\(saved.prefix(40))")
    }

    /// Twice in one session: the first live view's socket is closed when it stops, and the body takes a
    /// second one (capture mode stays open); then the card still lists.
    @Test func liveViewStopsCleanlyAndStartsAgain() throws {
        let fixture = try Fixture(folder: "100_FUJI")
        let server = try ServeProcess(arguments: ["--persona", "fuji-x", fixture.card])
        defer { _ = server.stop() }
        let run = try Self.mediashell(fixture, server, "liveview --count 3; liveview --count 3; ls /DCIM/100_FUJI")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.components(separatedBy: "liveview: 3 frames in ").count == 3, "\(run.stdout)")
        #expect(run.stdout.contains("IMG_0001.JPG"), "\(run.stdout)")
    }
}
