import Foundation
import MediaManager
import PTP
import TestSupport
import Testing
import Transfers
import VirtualCamera

@testable import Shell

/// `watch`: shots another initiator takes on the same virtual camera are said and, with --fetch, arrive
/// once each with the hook run once per file; files copied into a card folder too; a camera that sends
/// no events is listed again; a name a device chose never reaches the hook's shell as text.
@Suite struct WatchCommandTests {
    let home: TemporaryFolder

    init() throws { home = try TemporaryFolder("msh-watch") }

    func shell() -> LiveShell {
        var settings = Settings()
        settings.downloadFolder = home.path + "/down"
        let shell = LiveShell(settings: settings)
        shell.interpreter.environment["XDG_DATA_HOME"] = home.path + "/data"
        return shell
    }

    /// The lines a counting hook wrote.
    func hookLines() -> [String] {
        (try? String(contentsOfFile: home.path + "/hook.log", encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    var countingHook: String { "--exec 'printf \"%s\\n\" {} >> \(home.path)/hook.log'" }

    @Test func shotsTakenByAnotherSessionArriveOnceWithTheHookRunOncePerFile() throws {
        let card = try makeCardFolder(bigFileSize: 1_000)
        let camera = try QuirkyCamera([], folder: card.path, capture: true)
        let shell = shell()
        shell.interpreter.attach(camera.session)
        shell.start("watch --fetch \(countingHook)")
        #expect(shell.line { $0.hasPrefix("watching for new files") } != nil)
        let other = try secondClient(of: camera.camera)
        defer { other.close() }
        for number in [102, 103] {
            _ = try other.capture(timeout: 10)
            let name = "IMG_0\(number).JPG"
            #expect(shell.line { $0 == "new /DCIM/101MEDIA/\(name) (79.4 kB)" } != nil, "\(shell.seen.all)")
            #expect(shell.line { $0.hasPrefix("fetched \(name) -> ") } != nil, "\(shell.seen.all)")
        }
        #expect(shell.stop() == .success)
        #expect(shell.line { $0 == "watch: ended" } != nil)
        #expect(hookLines() == ["\(home.path)/down/IMG_0102.JPG", "\(home.path)/down/IMG_0103.JPG"])
        let shot = try #require(FileManager.default.contents(atPath: home.path + "/down/IMG_0103.JPG"))
        #expect([UInt8](shot) == card.read("DCIM/101MEDIA/IMG_0103.JPG"))
        #expect(shell.output.errors.all.isEmpty, "\(shell.output.errors.all)")
        camera.session.close()
    }

    /// A camera in shoot mode gives no files (DeviceBusy, as a drone's camera does): `watch --fetch` says once
    /// that it fetches each new file in download mode, does so, and leaves the camera shooting.
    @Test func inShootModeEachNewFileIsFetchedAndTheCameraKeepsShooting() throws {
        let card = try makeCardFolder(bigFileSize: 1_000)
        let camera = try QuirkyCamera([], folder: card.path, capture: true)
        let shell = shell()
        shell.interpreter.attach(camera.session)
        #expect(shell.interpreter.run(line: "mode shoot") == .success)
        shell.start("watch --fetch")
        #expect(shell.line { $0.hasPrefix("watching for new files") } != nil)
        let other = try secondClient(of: camera.camera)
        defer { other.close() }
        for number in [102, 103] {
            _ = try other.capture(timeout: 10)
            let name = "IMG_0\(number).JPG"
            #expect(shell.line { $0.hasPrefix("fetched \(name) -> ") } != nil, "\(shell.seen.all) \(shell.output.errors.all)")
            let shot = FileManager.default.contents(atPath: home.path + "/down/" + name).map([UInt8].init)
            let whole = shot == card.read("DCIM/101MEDIA/" + name)
            #expect(whole, "\(name) is not the camera's file")
        }
        #expect(shell.stop() == .success)
        #expect(shell.output.errors.all == [
            "watch: the camera is in shoot mode: each new file is fetched in download mode, then the camera goes back to shoot mode",
        ])
        #expect(try camera.session.camera.workMode() == .shoot, "back to shooting")
        #expect(shell.interpreter.prompt.hasSuffix(" (shoot)> "), "\(shell.interpreter.prompt)")
        camera.session.close()
    }

    @Test func filesDroppedIntoACardFolderAndAHostileNameStaysAWord() throws {
        let card = try makeCardFolder(bigFileSize: 1_000)
        let shell = shell()
        try shell.interpreter.open(.folder(path: card.path))
        shell.start("watch --to '\(home.path)/in/%f' \(countingHook)")
        #expect(shell.line { $0.hasPrefix("watching for new files") } != nil)
        let hostile = "$(touch pwned)'\"; touch pwned2.JPG"
        // Written beside, then renamed in: as a copy that is whole when it appears.
        try card.write("hostile.tmp", patternBytes(3_000, seed: 30))
        try FileManager.default.moveItem(atPath: card.path("hostile.tmp"), toPath: card.path("DCIM/101MEDIA/" + hostile))
        #expect(shell.line { $0.hasPrefix("fetched ") } != nil, "\(shell.seen.all) \(shell.output.errors.all)")
        #expect(shell.stop() == .success)
        let local = home.path + "/in/" + hostile
        #expect(hookLines() == [local])
        #expect(FileManager.default.contents(atPath: local).map([UInt8].init) == patternBytes(3_000, seed: 30))
        #expect(!FileManager.default.fileExists(atPath: "pwned") && !FileManager.default.fileExists(atPath: "pwned2.JPG"))
    }

    @Test func aCameraThatSendsNoEventsIsListedAgainAndSaysSoOnce() throws {
        let card = try makeCardFolder(bigFileSize: 1_000)
        let camera = try QuirkyCamera([.noEvents], folder: card.path, capture: true)
        let shell = shell()
        shell.interpreter.attach(camera.session)
        shell.start("watch --json")
        #expect(shell.line { $0 == #"{"event":"watching"}"# } != nil)
        let other = try secondClient(of: camera.camera)
        defer { other.close() }
        try other.session.initiateCapture()
        let line = shell.line { $0.contains("\"new\"") }
        #expect(line == #"{"event":"new","path":"/DCIM/101MEDIA/IMG_0102.JPG","size":79387}"#, "\(shell.seen.all)")
        try other.session.initiateCapture()
        #expect(shell.line { $0.contains("IMG_0103.JPG") } != nil, "\(shell.seen.all)")
        #expect(shell.stop() == .success)
        #expect(shell.output.errors.all.filter { $0.contains("announced no new file") }.count == 1, "\(shell.output.errors.all)")
        camera.session.close()
    }

    @Test func theHookSeesThePathAsOneArgument() {
        let hook = WatchHook(template: "cp {} /backup/")
        #expect(hook.script == #"cp "$1" /backup/"#)
        #expect(WatchHook(template: "exiftool").script == #"exiftool "$1""#)
    }
}
