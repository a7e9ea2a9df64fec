import Foundation
import TestSupport
import Testing

@testable import Shell

/// `capture --fetch` on the built-in virtual camera: the shot is downloaded through the import's pattern,
/// keeps its capture time, is recorded in the ledger (so `import` does not bring it again), and a bad
/// pattern takes no picture.
@Suite struct CaptureFetchTests {
    let home: TemporaryFolder
    let interpreter: Interpreter
    let output: CapturedOutput

    init() throws {
        home = try TemporaryFolder("msh-capture")
        (interpreter, output, _) = makeInterpreter()
        interpreter.environment["XDG_DATA_HOME"] = home.path + "/data"
        interpreter.state.settings.downloadFolder = home.path + "/down"
    }

    @Test func theShotArrivesWithItsCaptureTimeAndIsImportedOnce() throws {
        #expect(interpreter.run(line: "open sim:; capture --fetch") == .success, "\(output.errors)")
        let shot = home.path + "/down/IMG_0001.JPG"
        #expect(output.lines.contains("fetched IMG_0001.JPG -> \(shot) (79.4 kB)"), "\(output.lines)")
        let attributes = try FileManager.default.attributesOfItem(atPath: shot)
        #expect(attributes[.size] as? Int == 79_387)
        // The demo photo's EXIF says 2024-05-01 10:12:03.
        let modified = try #require(attributes[.modificationDate] as? Date)
        #expect(Calendar(identifier: .gregorian).component(.year, from: modified) == 2024)

        #expect(interpreter.run(line: "capture --to '\(home.path)/by-date/%Y-%m/%b.%e'") == .success, "\(output.errors)")
        #expect(FileManager.default.fileExists(atPath: home.path + "/by-date/2024-05/IMG_0002.JPG"))
        #expect(interpreter.run(line: "import --list DCIM/100MEDIA/IMG_0001.JPG DCIM/100MEDIA/IMG_0002.JPG") == .success)
        #expect(output.lines.last == "0 new files (0 B); 2 imported before", "\(output.lines)")
    }

    /// A camera in shoot mode gives its files only in download mode (DeviceBusy otherwise, as a drone's
    /// camera does): `capture --fetch` switches it to download mode for the fetch and back to shoot mode,
    /// and says so; the prompt shows the mode while the camera is in shoot mode.
    @Test func inShootModeTheShotIsFetchedAndTheCameraGoesBackToShooting() throws {
        #expect(interpreter.run(line: "open sim:; mode shoot") == .success, "\(output.errors)")
        #expect(interpreter.prompt == "sim:/ (shoot)> ")
        output.reset()
        #expect(interpreter.run(line: "capture --fetch") == .success, "\(output.errors)")
        #expect(output.errors.isEmpty, "\(output.errors)")
        #expect(FileManager.default.fileExists(atPath: home.path + "/down/IMG_0001.JPG"))
        #expect(output.lines.contains { $0.hasPrefix("switched the camera to download mode for the fetch") }, "\(output.lines)")
        #expect(interpreter.run(line: "mode") == .success)
        #expect(output.lines.last == "mode shoot", "back to shooting")
        #expect(interpreter.prompt == "sim:/ (shoot)> ")
        #expect(interpreter.run(line: "mode download") == .success)
        #expect(interpreter.prompt == "sim:/> ")
    }

    @Test func aBadPatternTakesNoPicture() {
        #expect(interpreter.run(line: "open sim:; capture --to '/x/%q'") == .failure)
        #expect(output.errors.last?.contains("unknown token %q") == true, "\(output.errors)")
        #expect(interpreter.run(line: "ls DCIM/100MEDIA/IMG_0001.JPG") == .failure)
    }
}
