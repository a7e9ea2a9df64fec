import Foundation
import TestSupport
import Testing

/// Tethered shooting across processes: our `watch --fetch --exec` on one PTP/IP session of `mediashell serve`
/// downloads what gphoto2's `--capture-image` shoots on another session of the same virtual camera (serve
/// serves several sessions at once, each with the card's events), running the hook once per file; Ctrl-C
/// ends it with status 0. And `watch --reconnect` across the camera going away and coming back.
@Suite(.serialized, .tags(.process, .port), .notInFastRun) struct TetheredInteropTests {
    @Test(.enabled(if: Gphoto2InteropTests.gphoto2 != nil)) func watchFetchesWhatGphoto2Captures() throws {
        let fixture = try Gphoto2InteropTests.Fixture()
        let server = try ServeProcess(arguments: ["--writable", fixture.card])
        defer { _ = server.stop() }
        let hookLog = fixture.work + "/hook.log"
        let watch = try ShellProcess(
            ["--camera", "ptpip:127.0.0.1:\(server.port)", "-c",
             "watch --to '\(fixture.work)/in/%f' --exec 'printf \"%s\\n\" {} >> \(hookLog)'"],
            environment: ["HOME": fixture.home, "XDG_DATA_HOME": fixture.home + "/data"])
        defer { watch.kill() }
        #expect(watch.waitForOutput("watching for new files"), "\(watch.output)")
        for name in ["IMG_0001.JPG", "IMG_0002.JPG"] {
            let shot = try fixture.gphoto2(server.port, ["--capture-image"])
            #expect(shot.status == 0, "\(shot.stderr)")
            #expect(watch.waitForOutput("fetched \(name) -> "), "\(watch.output)\n\(watch.errors)")
        }
        #expect(watch.interrupt() == 0, "\(watch.errors)")
        let hooked = (try? String(contentsOfFile: hookLog, encoding: .utf8)) ?? ""
        #expect(hooked == "\(fixture.work)/in/IMG_0001.JPG\n\(fixture.work)/in/IMG_0002.JPG\n", "\(watch.output)")
        for name in ["IMG_0001.JPG", "IMG_0002.JPG"] {
            #expect(FileManager.default.contents(atPath: fixture.work + "/in/" + name)
                == FileManager.default.contents(atPath: fixture.card + "/DCIM/101MEDIA/" + name))
        }
    }

    /// `watch --reconnect`: the camera goes away (serve stopped) while a shot is added to its card, and comes
    /// back on the same port; the watch says so, fetches the file taken meanwhile once, runs the hook once,
    /// and goes on watching.
    @Test func watchWithReconnectSurvivesTheCameraGoingAwayAndFetchesWhatWasShotMeanwhile() throws {
        let fixture = try Gphoto2InteropTests.Fixture()
        var server = try ServeProcess(arguments: ["--writable", fixture.card])
        let port = server.port
        defer { _ = server.stop() }
        let hookLog = fixture.work + "/hook.log"
        let watch = try ShellProcess(
            ["--camera", "ptpip:127.0.0.1:\(port)", "-c",
             "watch --reconnect --to '\(fixture.work)/in/%f' --exec 'printf \"%s\\n\" {} >> \(hookLog)'"],
            environment: ["HOME": fixture.home, "XDG_DATA_HOME": fixture.home + "/data"])
        defer { watch.kill() }
        #expect(watch.waitForOutput("watching for new files"), "\(watch.output)")
        #expect(server.stop() == 0)
        #expect(watch.waitForError("the camera went away"), "\(watch.output)\n\(watch.errors)")
        // Shot while the camera was away: written beside the folder, then moved in whole.
        var random = SeededRandom(test: "shot while away")
        let shot = random.bytes(200_000)
        try Data(shot).write(to: URL(fileURLWithPath: fixture.card + "/DCIM/DJI_0042.JPG"))
        try FileManager.default.moveItem(atPath: fixture.card + "/DCIM/DJI_0042.JPG", toPath: fixture.card + "/DCIM/101MEDIA/DJI_0042.JPG")
        server = try ServeProcess(arguments: ["--writable", fixture.card], port: port)
        #expect(watch.waitForOutput("the camera is back; 1 new file meanwhile", timeout: 60), "\(watch.output)\n\(watch.errors)")
        #expect(watch.waitForOutput("fetched DJI_0042.JPG -> "), "\(watch.output)\n\(watch.errors)")
        #expect(watch.interrupt() == 0, "\(watch.errors)")
        let hooked = (try? String(contentsOfFile: hookLog, encoding: .utf8)) ?? ""
        #expect(hooked == "\(fixture.work)/in/DJI_0042.JPG\n", "\(watch.output)")
        #expect(FileManager.default.contents(atPath: fixture.work + "/in/DJI_0042.JPG") == Data(shot))
    }
}

/// `mediashell` run as its own process whose standard output a test waits on, line by line, while it runs.
final class ShellProcess: Sendable {
    let process = Process()
    private let stdout = PipeCollector()
    private let stderr = PipeCollector()
    private let exited = Mailbox<Void>()

    init(_ arguments: [String], environment: [String: String]) throws {
        let exited = self.exited
        process.terminationHandler = { _ in exited.put(()) }
        process.executableURL = URL(fileURLWithPath: BuildProducts.mediashell)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout.pipe
        process.standardError = stderr.pipe
        try process.run()
    }

    var output: String { stdout.text }
    var errors: String { stderr.text }

    /// Waits (up to `timeout`) until standard output holds `text`.
    func waitForOutput(_ text: String, timeout: TimeInterval = 30) -> Bool { stdout.wait(for: text, timeout: timeout) }

    /// Waits (up to `timeout`) until standard error holds `text`.
    func waitForError(_ text: String, timeout: TimeInterval = 30) -> Bool { stderr.wait(for: text, timeout: timeout) }

    /// SIGINT, as Ctrl-C; the exit status, or nil when it did not end within 10 s.
    func interrupt() -> Int32? {
        Foundation.kill(process.processIdentifier, SIGINT)
        guard exited.take(timeout: 10) != nil else { return nil }
        return process.terminationStatus
    }

    /// Waits for the end (up to `timeout`); the exit status, or nil when it did not end.
    func wait(timeout: TimeInterval = 60) -> Int32? {
        guard exited.take(timeout: timeout) != nil else { return nil }
        return process.terminationStatus
    }

    func kill() {
        guard process.isRunning else { return }
        process.terminate()
        _ = exited.take(timeout: 5)
    }
}
