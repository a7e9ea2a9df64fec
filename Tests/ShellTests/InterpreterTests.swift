import Foundation
import MediaManager
import POSIX
import TestSupport
import Testing
import VirtualCamera

@testable import Shell
@testable import TerminalKit

/// The interpreter in this process, over real `sim:` and `dir:` cameras, with its output captured.
@Suite struct InterpreterTests {
    let card: TemporaryFolder
    let downloads: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput
    let interrupt: ScriptedInterrupt

    init() throws {
        card = try makeCardFolder()
        downloads = try TemporaryFolder("msh-dl")
        var settings = Settings()
        settings.downloadFolder = downloads.path
        (interpreter, output, interrupt) = makeInterpreter(settings: settings)
        try interpreter.open(.folder(path: card.path))
        #expect(interpreter.state.folder == "", "a camera opens at the top of its card")
        _ = interpreter.run(line: "cd DCIM/100MEDIA")
    }

    private func run(_ line: String) -> LineStatus {
        interpreter.run(line: line)
    }

    /// The first `count` bytes of the card's `name` kept in `folder` as an interrupted fetch leaves them
    /// (the `.part` with its record).
    private func keepPart(_ count: Int, of name: String, in folder: String) throws {
        let media = try #require(interpreter.media)
        let file = try #require(media.catalog.file(atPath: "DCIM/100MEDIA/" + name))
        let bytes = try #require(card.read("DCIM/100MEDIA/" + name))
        try writeKeptPart(Array(bytes.prefix(count)), at: folder + "/" + name + ".part", of: media.partSource(file))
    }

    @Test func thePromptShowsTheState() throws {
        #expect(interpreter.prompt == "dir:/DCIM/100MEDIA> ")
        #expect(run("select DJI_0003.MP4; edit") == .success)
        #expect(interpreter.prompt == "dir:/DCIM/100MEDIA [DJI_0003.MP4] (edit)> ")
        #expect(run("done; cd ..") == .success)
        #expect(interpreter.prompt == "dir:/DCIM [DJI_0003.MP4]> ")
        interpreter.closeCamera()
        #expect(interpreter.prompt == "(no camera)> ")
    }

    @Test func aCancelledFetchLeavesTheOffsetAndTheNextFetchFinishes() throws {
        #expect(run("set limit-rate 1M") == .success)
        #expect(run("select DJI_0003.MP4") == .success)
        interrupt.arm(afterPolls: 3)
        #expect(run("fetch") == .interrupted)
        interrupt.arm(afterPolls: nil)
        interrupt.clear()

        let part = try #require(LocalDisk.size(downloads.path + "/DJI_0003.MP4.part"))
        let selection = try #require(interpreter.state.selection)
        #expect(selection.file.name == "DJI_0003.MP4")
        #expect(selection.offset == part)
        #expect(part > 0 && part < 3_000_000)
        #expect(output.errors.last?.hasPrefix("fetch: interrupted: DJI_0003.MP4 stopped at ") == true, "\(output.errors)")
        #expect(interpreter.prompt.contains("[DJI_0003.MP4 @ \(HumanReadable.size(part))]"))

        #expect(run("set limit-rate off; fetch") == .success, "\(output.errors)")
        #expect(downloads.read("DJI_0003.MP4") == card.read("DCIM/100MEDIA/DJI_0003.MP4") ? true : false)
        #expect(!downloads.exists("DJI_0003.MP4.part"))
        #expect(output.lines.last?.contains("continued from \(HumanReadable.size(part))") == true)
        #expect(interpreter.state.selection?.offset == 0)
    }

    @Test func aStoppedFetchOfAnUnselectedFileSelectsIt() throws {
        #expect(run("select DJI_0001.JPG") == .success)
        #expect(run("set limit-rate 1M") == .success)
        interrupt.arm(afterPolls: 3)
        #expect(run("get DJI_0003.MP4") == .interrupted)
        #expect(interpreter.state.selection?.file.name == "DJI_0003.MP4")
        #expect((interpreter.state.selection?.offset ?? 0) > 0)
    }

    @Test func offsetMovesBackNotPastWhatIsOnDisk() throws {
        try keepPart(1_000, of: "DJI_0003.MP4", in: downloads.path)
        #expect(run("select DJI_0003.MP4") == .success)
        #expect(interpreter.state.selection?.offset == 1_000, "selecting picks up the .part")
        #expect(run("offset 2000") == .failure)
        #expect(output.errors.last?.contains("only 1000 bytes of DJI_0003.MP4 are on disk") == true)
        #expect(run("offset 400") == .success)
        #expect(run("offset") == .success)
        #expect(output.lines.last == "DJI_0003.MP4: offset 400 of 3000000 bytes (0%)")
        #expect(run("fetch") == .success, "\(output.errors)")
        #expect(downloads.read("DJI_0003.MP4") == card.read("DCIM/100MEDIA/DJI_0003.MP4") ? true : false)
        #expect(output.lines.last?.contains("continued from 400 B") == true, "\(output.lines)")
    }

    /// Issue 16.1: `select` reads the offset from the default folder, and `fetch -o DIR` must still continue
    /// the `.part` in DIR instead of taking that 0 as a rewind.
    @Test func selectThenFetchIntoAnotherFolderContinuesItsPart() throws {
        let elsewhere = try TemporaryFolder("msh-out")
        let original = try #require(card.read("DCIM/100MEDIA/DJI_0003.MP4"))
        try keepPart(1_000, of: "DJI_0003.MP4", in: elsewhere.path)
        #expect(run("select DJI_0003.MP4") == .success)
        #expect(interpreter.state.selection?.offset == 0, "nothing in the default folder")
        #expect(run("fetch -o \(elsewhere.path) DJI_0003.MP4") == .success, "\(output.errors)")
        #expect(output.lines.last?.contains("continued from \(HumanReadable.size(UInt64(1_000)))") == true, "\(output.lines)")
        #expect(elsewhere.read("DJI_0003.MP4") == original)
    }

    /// Only an explicit `offset N` rewinds, and it applies to the folder the fetch writes to.
    @Test func anExplicitOffsetRewindsAFetchIntoAnotherFolder() throws {
        let elsewhere = try TemporaryFolder("msh-out")
        let original = try #require(card.read("DCIM/100MEDIA/DJI_0003.MP4"))
        try keepPart(1_000, of: "DJI_0003.MP4", in: downloads.path)
        try keepPart(2_000, of: "DJI_0003.MP4", in: elsewhere.path)
        #expect(run("select DJI_0003.MP4; offset 400") == .success, "\(output.errors)")
        #expect(run("fetch -o \(elsewhere.path)") == .success, "\(output.errors)")
        #expect(output.lines.last?.contains("continued from 400 B") == true, "\(output.lines)")
        #expect(elsewhere.read("DJI_0003.MP4") == original)
    }

    @Test func selectingAnotherFileResetsTheOffset() throws {
        #expect(run("set limit-rate 1M; select DJI_0003.MP4") == .success)
        interrupt.arm(afterPolls: 3)
        #expect(run("fetch") == .interrupted)
        interrupt.arm(afterPolls: nil)
        interrupt.clear()
        #expect((interpreter.state.selection?.offset ?? 0) > 0)
        #expect(run("select DJI_0001.JPG") == .success)
        #expect(interpreter.state.selection?.offset == 0)
        #expect(interpreter.prompt.hasSuffix("[DJI_0001.JPG]> "))
    }

    @Test func deleteNeedsEditModeOrForce() throws {
        #expect(run("delete DJI_0001.JPG") == .failure)
        #expect(output.errors == ["error: delete: refused: not in edit mode (type 'edit' first, or use delete --force)"])
        #expect(card.exists("DCIM/100MEDIA/DJI_0001.JPG"))
        #expect(run("edit; rm DJI_000?.JPG; done") == .success, "\(output.errors)")
        #expect(output.lines.suffix(2) == ["deleted /DCIM/100MEDIA/DJI_0001.JPG", "deleted /DCIM/100MEDIA/DJI_0002.JPG"])
        #expect(!card.exists("DCIM/100MEDIA/DJI_0002.JPG"))
        #expect(!interpreter.state.isEditing)
        #expect(run("delete --force My\\ Clip\\ 1.MP4") == .success)
        #expect(run("delete --force ../101MEDIA") == .failure, "folders are refused")
        #expect(card.exists("DCIM/101MEDIA/IMG_0100.JPG"))
    }

    @Test func fetchFollowsTheClashPolicy() throws {
        #expect(run("fetch *.JPG") == .success)
        #expect(output.lines.last == "fetch: 2 fetched, 0 skipped (already here), 0 renamed, 0 failed; 41.0 kB in "
            + (output.lines.last?.components(separatedBy: " in ").last ?? ""))
        // The same files again, with or without --new: skipped, counted, listed only with -v.
        for line in ["fetch *.JPG", "fetch --new *.JPG"] {
            output.standardOutput = ""
            #expect(run(line) == .success, "\(line): \(output.errors)")
            #expect(output.lines.count == 1, "\(line): \(output.lines)")
            #expect(output.lines.last?.hasPrefix("fetch: 0 fetched, 2 skipped (already here)") == true)
        }
        // One file named is said either way.
        #expect(run("fetch DJI_0001.JPG") == .success)
        #expect(output.lines.last?.hasPrefix("skipped DJI_0001.JPG") == true)
        // A different file at the name is kept; the camera's file gets a unique name, this time and the next.
        try Data([9, 9, 9]).write(to: URL(fileURLWithPath: downloads.path + "/DJI_0002.JPG"))
        #expect(run("fetch *.JPG") == .success)
        #expect(output.lines.contains { $0.hasPrefix("fetched DJI_0002.JPG -> \(downloads.path)/DJI_0002 (2).JPG") })
        #expect(downloads.read("DJI_0002.JPG") == [9, 9, 9])
        #expect(downloads.read("DJI_0002 (2).JPG") == card.read("DCIM/100MEDIA/DJI_0002.JPG"))
        #expect(run("fetch *.JPG") == .success)
        #expect(!downloads.exists("DJI_0002 (3).JPG"))
        #expect(output.errors.isEmpty, "\(output.errors)")
        // --force replaces it instead.
        #expect(run("fetch --force DJI_0002.JPG") == .success)
        #expect(downloads.read("DJI_0002.JPG") == card.read("DCIM/100MEDIA/DJI_0002.JPG"))
        #expect(run("fetch nothing*") == .failure)
        #expect(output.errors.last == "error: fetch: no match for 'nothing*'")
    }

    @Test func fetchIntoAFolder() throws {
        let other = try TemporaryFolder()
        #expect(run("fetch -o \(other.path)/clips DJI_0003.*") == .success, "\(output.errors)")
        #expect(other.exists("clips/DJI_0003.MP4") && other.exists("clips/DJI_0003.SRT"))
        try other.write("file", [1])
        #expect(run("fetch -o \(other.path)/file DJI_0001.JPG") == .failure)
        #expect(output.errors.last == "error: fetch: \(other.path)/file is not a folder")
    }

    @Test func aCutCableClosesTheCameraAndTheShellGoesOn() throws {
        let demo = try DemoCard.make()
        let (session, probe) = try probedSession(card: demo)
        try session.catalog.ensureLoaded()
        interpreter.attach(session)
        #expect(run("select DCIM/100MEDIA/DJI_0001.JPG") == .success)
        probe.cut()
        #expect(run("refresh") == .failure)
        #expect(output.errors.last?.hasPrefix("error: refresh: the camera went away (connection closed: the cut cable closed the connection during ") == true)
        #expect(interpreter.media == nil)
        #expect(interpreter.state.selection == nil)
        #expect(run("ls") == .failure)
        #expect(output.errors.last == "error: ls: no camera is open (use 'open URL', for example 'open sim:')")
        #expect(run("open sim:") == .success)
        #expect(output.lines.last?.hasPrefix("opened sim: (") == true)
        #expect(run("ls /DCIM/100MEDIA/DJI_0001.JPG") == .success)
    }

    @Test func aCableCutDuringAFetchKeepsThePart() throws {
        let (session, probe) = try probedSession(card: try Card(folder: card.path), url: .folder(path: card.path))
        try session.catalog.ensureLoaded()
        interpreter.attach(session)
        #expect(run("set limit-rate 1M") == .success)
        // A ScriptedInterrupt that never fires, but cuts the cable on its third poll.
        let cutter = CutOnPoll(probe: probe, after: 3)
        let other = Interpreter(output: output, interrupt: cutter, settings: interpreter.state.settings)
        let otherOutput = output
        other.attach(session)
        #expect(other.run(line: "fetch /DCIM/100MEDIA/DJI_0003.MP4") == .failure)
        #expect(otherOutput.errors.contains { $0.contains("the camera went away") }, "\(otherOutput.errors)")
        let part = try #require(LocalDisk.size(downloads.path + "/DJI_0003.MP4.part"))
        #expect(part > 0)
        #expect(other.media == nil)
        #expect(other.run(line: "open dir:\(card.path)") == .success)
        #expect(other.run(line: "fetch /DCIM/100MEDIA/DJI_0003.MP4") == .success, "\(otherOutput.errors)")
        #expect(downloads.read("DJI_0003.MP4") == card.read("DCIM/100MEDIA/DJI_0003.MP4") ? true : false)
    }

    @Test func listingsAndJSON() throws {
        #expect(run("ls") == .success)
        #expect(output.lines == [
            "Birthday Party.MP4", "DJI_0001.JPG", "DJI_0002.JPG", "DJI_0003.MP4", "DJI_0003.SRT", "My Clip 1.MP4",
            "My Clip 2.MP4",
        ])
        output.reset()
        #expect(run("ls -lS *.MP4") == .success)
        #expect(output.lines.first?.hasSuffix("DJI_0003.MP4") == true)
        #expect(output.lines.first?.contains("3.0 MB  video") == true, "\(output.lines)")
        output.reset()
        #expect(run("ls --json -r ../101MEDIA") == .success)
        let json = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]]
        #expect(json?.map { $0["name"] as? String } == ["IMG_0101.JPG", "IMG_0100.JPG"])
        #expect(json?.first?["path"] as? String == "/DCIM/101MEDIA/IMG_0101.JPG")
        #expect(json?.first?["size"] as? Int == 1_100)
        #expect(json?.first?["kind"] as? String == "photo")
        output.reset()
        #expect(run("cd /; ls") == .success)
        #expect(output.lines == ["DCIM/"])
    }

    @Test func namesFromTheDeviceArePrintedSafely() throws {
        try card.write("DCIM/100MEDIA/evil\u{1B}[2J.JPG", [1, 2, 3])
        #expect(run("refresh; ls evil*; ls -l evil*; info evil*") == .success, "\(output.errors)")
        #expect(!output.standardOutput.contains("\u{1B}"))
        #expect(output.standardOutput.contains("evil\\x1b[2J.JPG"))
        #expect(run("rm evil*") == .failure)
        #expect(output.errors.allSatisfy { !$0.contains("\u{1B}") })
    }

    @Test func infoAndItsJSON() throws {
        #expect(run("info DJI_0003.MP4") == .success)
        #expect(output.lines.contains("size:      3.0 MB (3000000 bytes)"), "\(output.lines)")
        #expect(output.lines.contains("sidecars:  DJI_0003.SRT"))
        output.reset()
        #expect(run("select DJI_0001.JPG; info --json") == .success)
        let object = try JSONSerialization.jsonObject(with: Data(output.lines.dropFirst().joined().utf8)) as? [String: Any]
        #expect(object?["name"] as? String == "DJI_0001.JPG")
        #expect(object?["selected"] as? Bool == true)
        #expect(object?["offset"] as? Int == 0)
    }

    @Test func settingsCommandsAndErrors() throws {
        #expect(run("set") == .success)
        #expect(output.lines.first == "errexit        on")
        #expect(run("set errexit off; set errexit") == .success)
        #expect(output.lines.last == "errexit off")
        #expect(run("set timeout soon") == .failure)
        #expect(output.errors.last == "error: set: timeout takes a number of seconds between 0 and 3600, such as 10 or 2.5")
        #expect(run("set colour on") == .failure)
        #expect(output.errors.last?.hasPrefix("error: set: unknown setting 'colour'") == true)
    }

    @Test func playbackAnswersHonestly() throws {
        #expect(run("play DJI_0003.MP4") == .failure, "the card's DJI_0003.MP4 is not a real movie")
        #expect(output.errors.last?.hasPrefix("error: play: cannot read DJI_0003.MP4 as a video: ") == true)
        #expect(run("play DJI_0001.JPG") == .failure)
        #expect(output.errors.last == "error: play: DJI_0001.JPG is not a video (play takes MP4 and MOV files)")
        #expect(run("seek 1:02.5") == .failure)
        #expect(output.errors.last == "error: seek: no video is loaded: play NAME first")
        #expect(run("seek soon") == .failure)
        #expect(output.errors.last?.hasPrefix("error: seek: POS must be seconds") == true)
    }

    /// On the demo camera, which has a work mode as a drone's camera does (a card folder has none).
    @Test func shootModeKeepsTheFilesAwayAndSaysHowToGetThemBack() throws {
        #expect(run("open sim:; cd DCIM/100MEDIA; mode") == .success)
        #expect(output.lines.last == "mode download")
        #expect(run("mode shoot; mode") == .success)
        #expect(output.lines.last == "mode shoot")
        #expect(run("fetch DJI_0001.JPG") == .failure)
        #expect(output.errors.last?.hasSuffix("(the camera is in shoot mode: 'mode download' gives access to its files)") == true)
        #expect(run("mode download; fetch --force DJI_0001.JPG") == .success, "\(output.errors)")
        #expect(run("mode sleep") == .failure)
        #expect(output.errors.last == "error: mode: download|shoot must be download or shoot, not 'sleep'")
    }

    @Test func captureAndThumbnailsOnTheDemoCamera() throws {
        #expect(run("open sim:; cd DCIM/100MEDIA") == .success)
        #expect(run("capture") == .success, "\(output.errors)")
        #expect(output.lines.last?.hasPrefix("captured /DCIM/100MEDIA/") == true, "\(output.lines)")
        let saved = try TemporaryFolder()
        #expect(run("thumb --save \(saved.path) DJI_0001.JPG DJI_0002.JPG") == .success, "\(output.errors)")
        #expect(output.lines.suffix(2).allSatisfy { $0.contains(": thumbnail 160x120, ") })
        #expect(saved.exists("DJI_0001.JPG.thumb.jpg"))
        #expect(run("thumb --save \(saved.path) DJI_0001.JPG") == .failure, "no overwrite without --force")
        #expect(run("thumb --force --save \(saved.path) DJI_0001.JPG") == .success)
    }

    @Test func aScriptStopsAtItsFirstFailureUnlessExcused() {
        #expect(interpreter.runScript("pwd\n-bogus\nls NOPE\npwd") == .stopped)
        #expect(output.errors == [
            "test:2: error: column 2: unknown command 'bogus' (try 'help')",
            "test:3: error: ls: no such file or folder: NOPE",
        ])
        output.reset()
        #expect(interpreter.runScript("set errexit off\nls NOPE\npwd") == .finished(failed: true))
        #expect(output.lines == ["/DCIM/100MEDIA"])
        #expect(interpreter.runScript("set errexit on\n-ls NOPE\npwd\n") == .finished(failed: false))
        #expect(interpreter.runScript("pwd; quit; pwd\nls") == .quit(failed: false))
    }
}

/// An interrupt source that never fires but cuts the camera's cable when polled `after` times.
final class CutOnPoll: InterruptSource, Sendable {
    private let probe: ProbeTransport
    private let polls = Locked(0)
    private let after: Int

    init(probe: ProbeTransport, after: Int) {
        self.probe = probe
        self.after = after
    }

    var isPending: Bool {
        polls.withLock { polls in
            polls += 1
            if polls == after { probe.cut() }
        }
        return false
    }

    func clear() {}
    func waitForInterrupt(upTo seconds: Double) -> Bool { isPending }
}

/// The interpreter keeps lines, scripts, aliases and reporting; everything of the open camera is one
/// `CameraSession`, made by `open` and dropped by `close` (issue 47): at most 10 stored properties.
@Suite struct InterpreterShapeTests {
    @Test func atMostTenStoredProperties() {
        let (interpreter, _, _) = makeInterpreter()
        let stored = Mirror(reflecting: interpreter).children.compactMap(\.label)
        #expect(stored.count <= 10, "\(stored.count): \(stored)")
    }

    @Test func closingTheCameraDropsEverythingOfIt() throws {
        let (interpreter, _, _) = makeInterpreter()
        try interpreter.open(.simulator(path: nil))
        #expect(interpreter.run(line: "mode shoot") == .success)
        #expect(interpreter.cameraMode == .shoot)
        #expect(interpreter.run(line: "close") == .success)
        #expect(interpreter.camera == nil && interpreter.cameraMode == nil && interpreter.openNote == nil)
        try interpreter.open(.simulator(path: nil))
        #expect(interpreter.cameraMode == nil, "the next camera's mode is its own, unknown until read")
    }
}
