import Foundation
import TestSupport
import Testing

/// `mediashell serve --persona fuji-x`: the virtual camera as a Fujifilm X body on Wi-Fi (Fuji's framing,
/// the function-mode handshake), checked by our client and by libgphoto2's Fuji Wi-Fi client, an
/// implementation nobody here wrote. Ports chosen at run time.
@Suite(.serialized, .tags(.process, .port), .notInFastRun) struct FujiPersonaInteropTests {
    static let gphoto2 = ProcessRunner.which("gphoto2")

    /// A card with two photos and a movie, and scratch HOME and work folders.
    final class Fixture {
        let base: String
        let card: String
        let home: String
        let work: String
        var files: [String: [UInt8]] = [:]

        init() throws {
            base = FileManager.default.temporaryDirectory.appendingPathComponent("fuji-\(UUID().uuidString)").path
            card = base + "/card"
            home = base + "/home"
            work = base + "/work"
            for dir in [card + "/DCIM/100_FUJI", home, work] {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            }
            let demo = BuildProducts.packageRoot.appendingPathComponent("Sources/VirtualCamera/DemoMedia").path
            var generator = SeededRandom(test: "fuji persona interop card")
            let photo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: demo + "/photo_landscape.jpg")))
            for (name, bytes) in [("DSCF0001.JPG", photo), ("DSCF0002.JPG", generator.bytes(40_000)), ("DSCF0003.MOV", generator.bytes(2_500_003))] {
                let path = "DCIM/100_FUJI/\(name)"
                files[path] = bytes
                try Data(bytes).write(to: URL(fileURLWithPath: card + "/" + path))
            }
        }

        func url(_ server: ServeProcess) -> String { "fuji:127.0.0.1:\(server.port):\(server.eventPort ?? 0)" }

        /// libgphoto2's Fuji Wi-Fi client: chosen by a model name with "Fuji" on a ptpip: port.
        func gphoto2(_ server: ServeProcess, _ arguments: [String], timeout: TimeInterval = 120) throws -> ProcessResult {
            try ProcessRunner.run(
                FujiPersonaInteropTests.gphoto2!,
                ["--port", "ptpip:127.0.0.1:\(server.port):\(server.eventPort ?? 0)", "--camera", "Fuji X (WLAN)"] + arguments,
                directory: work, environment: ["HOME": home, "LANG": "C"], timeout: timeout)
        }

        func mediashell(_ server: ServeProcess, _ commands: String) throws -> ProcessResult {
            try ProcessRunner.run(
                BuildProducts.mediashell, ["--camera", url(server), "--download-dir", work, "-n", "-c", commands],
                directory: work, environment: ["HOME": home, "LANG": "C"], timeout: 120)
        }

        var onCard: Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: card + "/DCIM/100_FUJI")) ?? []) }

        func expectFetched(_ sourceLocation: SourceLocation = #_sourceLocation) {
            for (path, bytes) in files {
                let local = work + "/" + URL(fileURLWithPath: path).lastPathComponent
                #expect(FileManager.default.contents(atPath: local).map(Array.init) == bytes, "\(path)", sourceLocation: sourceLocation)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: base) }
    }

    @Test func servesFujisFramingOnTheEventPortToo() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: ["--persona", "fuji-x", fixture.card])
        defer { _ = server.stop() }
        #expect(server.eventPort != nil, "\(server.log)")
        #expect(server.log.contains("as a Fujifilm camera on Wi-Fi"), "\(server.log)")
    }

    /// Our client: the handshake, list, fetch byte-identical, resume, thumbnail, props, capture, delete.
    @Test func ourClientSpeaksFujiToThePersona() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: ["--writable", "--persona", "fuji-x", fixture.card])
        defer { _ = server.stop() }
        // A download left half done, as Ctrl-C leaves it (its .part with the record that proves it).
        let part = fixture.work + "/DSCF0003.MOV.part"
        let stopped = try SignalTests.Running(
            ["--camera", fixture.url(server), "--download-dir", fixture.work, "-n", "-c",
             "set limit-rate 256k; fetch DCIM/100_FUJI/DSCF0003.MOV"],
            in: fixture.base, environment: ["HOME": fixture.home, "LANG": "C"])
        try #require(stopped.wait(watching: fixture.work) { SignalTests.size(part) > 0 }, "\(stopped.errorText)")
        kill(stopped.process.processIdentifier, SIGINT)
        try #require(stopped.waitForExit(), "the stopped fetch did not end")
        let kept = SignalTests.size(part)
        #expect(kept > 0 && kept < 2_500_003)
        let before = fixture.onCard
        let result = try fixture.mediashell(
            server,
            "summary; find; fetch DCIM/100_FUJI/DSCF0003.MOV; fetch DCIM/100_FUJI/*; thumb DCIM/100_FUJI/DSCF0001.JPG; props; "
                + "capture; delete --force DCIM/100_FUJI/DSCF0002.JPG; find")
        #expect(result.status == 0, "\(result.stderr)\n\(result.stdout)")
        #expect(result.stdout.contains("FUJIFILM X-T20"), "\(result.stdout)")
        #expect(result.stdout.contains("Fujifilm X"), "\(result.stdout)")
        #expect(result.stdout.contains("continued from"), "\(result.stdout)")
        #expect(result.stdout.contains("thumbnail"), "\(result.stdout)")
        #expect(result.stdout.contains("battery"), "\(result.stdout)")
        fixture.expectFetched()
        // The capture's file is on the card and was named from the body's events; the deleted one is gone.
        let added = fixture.onCard.subtracting(before)
        #expect(added.count == 1)
        for name in added { #expect(result.stdout.contains("captured /DCIM/100_FUJI/\(name)"), "\(result.stdout)") }
        #expect(!fixture.onCard.contains("DSCF0002.JPG"))
        #expect(result.stdout.contains("deleted /DCIM/100_FUJI/DSCF0002.JPG"), "\(result.stdout)")
    }

    /// `ptpip:` pointed at the persona's port is told what it is: the PTP/IP request gets no answer (no
    /// Init_Fail: nobody refused this computer), Fuji's init request is answered, and the words name the
    /// `fuji:` URL of that port.
    @Test func ptpipAtTheFujiPortIsToldWhatItIs() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: ["--persona", "fuji-x", fixture.card])
        defer { _ = server.stop() }
        let result = try ProcessRunner.run(
            BuildProducts.mediashell, ["--camera", "ptpip:127.0.0.1:\(server.port)", "-n", "-c", "summary"],
            directory: fixture.work, environment: ["HOME": fixture.home, "LANG": "C"], timeout: 60)
        #expect(result.status != 0)
        #expect(result.stderr.contains("answered Fuji's init request on port \(server.port)"), "\(result.stderr)")
        #expect(result.stderr.contains("open fuji:127.0.0.1:\(server.port) "), "\(result.stderr)")
        #expect(!result.stderr.contains("Init_Fail") && !result.stderr.contains("Pair it again"), "\(result.stderr)")
        #expect(!server.log.contains("Init_Fail"), "\(server.log)")
    }

    // MARK: libgphoto2's Fuji Wi-Fi client

    @Test(.enabled(if: gphoto2 != nil)) func gphoto2OpensListsAndFetches() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: ["--persona", "fuji-x", fixture.card])
        defer { _ = server.stop() }
        let summary = try fixture.gphoto2(server, ["--summary"])
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(summary.stdout.contains("Manufacturer: FUJIFILM"), "\(summary.stdout)")
        #expect(summary.stdout.contains("Vendor Extension ID: 0xe"), "\(summary.stdout)")
        let list = try fixture.gphoto2(server, ["--list-files"])
        #expect(list.status == 0, "\(list.stderr)")
        for path in fixture.files.keys { #expect(list.stdout.contains(URL(fileURLWithPath: path).lastPathComponent), "\(list.stdout)") }
        let get = try fixture.gphoto2(server, ["--get-all-files"])
        #expect(get.status == 0, "\(get.stderr)")
        fixture.expectFetched()
        let thumb = try fixture.gphoto2(server, ["--folder", "/store_00010001/DCIM/100_FUJI", "--get-thumbnail", "DSCF0001.JPG"])
        #expect(thumb.status == 0, "\(thumb.stderr)")
        let saved = FileManager.default.contents(atPath: fixture.work + "/thumb_DSCF0001.jpg").map(Array.init) ?? []
        #expect(saved.prefix(2) == [0xFF, 0xD8])
        let config = try fixture.gphoto2(server, ["--get-config", "/main/status/manufacturer"])
        #expect(config.stdout.contains("Current: FUJIFILM"), "\(config.stdout)\(config.stderr)")
    }

    @Test(.enabled(if: gphoto2 != nil)) func gphoto2CapturesAndDeletes() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: ["--writable", "--persona", "fuji-x", fixture.card])
        defer { _ = server.stop() }
        let before = fixture.onCard
        let capture = try fixture.gphoto2(server, ["--capture-image"], timeout: 60)
        #expect(capture.status == 0, "\(capture.stderr)\n\(capture.stdout)")
        let added = fixture.onCard.subtracting(before)
        // One picture: gphoto2 focuses (0xD208 = 0x0200) and shoots (0x0304) with two InitiateCaptures.
        #expect(added == ["DSCF0004.JPG"])
        #expect(added.allSatisfy { capture.stdout.contains($0) }, "\(capture.stdout)")
        let delete = try fixture.gphoto2(server, ["--folder", "/store_00010001/DCIM/100_FUJI", "--delete-file", "DSCF0002.JPG"])
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect(!fixture.onCard.contains("DSCF0002.JPG"))
    }
}
