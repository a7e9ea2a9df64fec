import Foundation
import MediaManager
import TestSupport
import Testing
import VirtualCamera

@testable import Shell

/// A card folder (`dir:`) is a folder, not a camera: it has no battery, clock, exposure or mode, and
/// nothing says it has (issue 41, item 4). The demo camera keeps its simulated ones.
@Suite struct CardFolderSettingsTests {
    let card: TemporaryFolder
    let home: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        card = try makeCardFolder(bigFileSize: 10_000)
        home = try TemporaryFolder("msh-card-settings")
        (interpreter, output, _) = makeInterpreter()
        interpreter.environment["XDG_DATA_HOME"] = home.path
        try interpreter.open(.folder(path: card.path))
    }

    private func run(_ line: String) -> LineStatus {
        output.reset()
        return interpreter.run(line: line)
    }

    @Test func propsSaysThereAreNone() throws {
        #expect(run("props") == .success, "\(output.errors)")
        #expect(output.lines == ["this camera reports no settings (its DeviceInfo lists no device properties)"])
        #expect(run("props --json") == .success)
        #expect(output.lines == ["[]"])
        #expect(run("prop battery") == .failure)
        #expect(run("sync-time") == .failure)
        #expect(output.errors.last?.contains("no clock") == true, "\(output.errors)")
        #expect(run("mode") == .failure)
        #expect(output.errors.last == "error: mode: not supported by this camera", "\(output.errors)")
    }

    @Test func summaryAndStoragesInventNothing() throws {
        #expect(run("summary") == .success, "\(output.errors)")
        let summary = output.standardOutput
        #expect(!output.lines.contains { $0.hasPrefix("version:") }, "a folder has no firmware: \(summary)")
        #expect(!summary.contains("battery") && !summary.contains("%"), "\(summary)")
        #expect(run("storages") == .success)
        #expect(!output.standardOutput.contains("SD card"), "a folder is not known to be an SD card: \(output.standardOutput)")
        #expect(output.lines.last?.hasSuffix(" folder") == true, "\(output.lines)")
    }

    /// The date a card folder lists is its file's time, said so, not a camera's date.
    @Test func infoNamesAFoldersDateAsTheFilesTime() throws {
        let photo = try #require(DemoMedia.file("photo_landscape.jpg").flatMap { FileManager.default.contents(atPath: $0) })
        try card.write("DCIM/100MEDIA/PHOTO.JPG", Array(photo))
        #expect(run("refresh; info DCIM/100MEDIA/PHOTO.JPG") == .success, "\(output.errors)")
        #expect(output.lines.contains { $0.hasPrefix("file's time:") }, "\(output.lines)")
        #expect(!output.lines.contains { $0.hasPrefix("camera's date:") }, "\(output.lines)")
    }

    @Test func theDemoCameraKeepsItsSimulatedSettings() throws {
        #expect(run("open sim:; props") == .success, "\(output.errors)")
        #expect(output.lines.contains { $0.hasPrefix("battery") }, "\(output.lines)")
    }
}
