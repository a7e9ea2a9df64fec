import Foundation
import TestSupport
import Testing

/// The virtual camera's device properties over PTP/IP `serve`: gphoto2's --list-config, --get-config and
/// --set-config, and our own `props`/`prop`/`sync-time`, each seeing what the other set.
@Suite(.serialized, .tags(.process, .port), .notInFastRun) struct PropertyInteropTests {
    static let gphoto2 = Gphoto2InteropTests.gphoto2

    private func ours(_ port: UInt16, _ script: String, home: String) throws -> ProcessResult {
        try ProcessRunner.run(
            BuildProducts.mediashell, ["--camera", "ptpip:127.0.0.1:\(port)", "-c", script],
            environment: ["HOME": home, "LANG": "C"], timeout: 60)
    }

    @Test(.enabled(if: gphoto2 != nil)) func gphoto2AndOurClientReadAndSetTheSameProperties() throws {
        let fixture = try Gphoto2InteropTests.Fixture()
        let server = try ServeProcess(arguments: [fixture.card])
        defer { _ = server.stop() }

        let list = try fixture.gphoto2(server.port, ["--list-config"])
        #expect(list.status == 0, "\(list.stderr)")
        for path in ["/main/status/batterylevel", "/main/settings/datetime", "/main/imgsettings/whitebalance",
            "/main/imgsettings/iso", "/main/imgsettings/imagesize", "/main/capturesettings/f-number",
            "/main/capturesettings/shutterspeed", "/main/capturesettings/capturemode"]
        {
            #expect(list.stdout.contains(path), "\(path) missing in\n\(list.stdout)")
        }

        let white = try fixture.gphoto2(server.port, ["--get-config", "/main/imgsettings/whitebalance"])
        #expect(white.stdout.contains("Current: Automatic"), "\(white.stdout)")
        #expect(white.stdout.contains("Daylight"), "\(white.stdout)")
        let battery = try fixture.gphoto2(server.port, ["--get-config", "/main/status/batterylevel"])
        #expect(battery.stdout.contains("Current: 87%"), "\(battery.stdout)")

        let set = try fixture.gphoto2(server.port, ["--set-config", "/main/imgsettings/whitebalance=Daylight"])
        #expect(set.status == 0, "\(set.stderr)")
        let read = try ours(server.port, "prop whitebalance; prop iso 800; prop fnumber f/8; props --json", home: fixture.home)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("whitebalance daylight\niso 800\nfnumber f/8\n"), "\(read.stdout)")
        #expect(read.stdout.contains(#""name":"exposuretime","raw":40,"value":"1/250","writable":true"#), "\(read.stdout)")

        let iso = try fixture.gphoto2(server.port, ["--get-config", "/main/imgsettings/iso"])
        #expect(iso.stdout.contains("Current: 800"), "\(iso.stdout)")

        let refused = try ours(server.port, "prop iso 5000", home: fixture.home)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("5000 is not allowed for iso (allowed: 100, 200, 400, 800, 1600, 3200)"), "\(refused.stderr)")
        let readOnly = try ours(server.port, "prop battery 50", home: fixture.home)
        #expect(readOnly.stderr.contains("battery is read-only"), "\(readOnly.stderr)")

        let clock = try ours(server.port, "prop datetime 2020-05-06 07:08:09; prop datetime; sync-time", home: fixture.home)
        #expect(clock.status == 0, "\(clock.stderr)")
        #expect(clock.stdout.contains("datetime 2020-05-06 07:08:"), "\(clock.stdout)")
        #expect(clock.stdout.contains("(was 2020-05-06 07:08:"), "sync-time says what the clock was: \(clock.stdout)")
        let date = try fixture.gphoto2(server.port, ["--get-config", "/main/settings/datetime"])
        #expect(date.status == 0, "\(date.stderr)")
        #expect(!date.stdout.contains("2020"), "sync-time set the clock back to now: \(date.stdout)")
    }
}
