import Foundation
import TestSupport
import Testing

/// put, mkdir and rmdir as a user runs them: `mediashell -c '...'` against `mediashell serve --writable`
/// (the files land byte-identical in the served folder, a taken name and a non-empty folder are refused,
/// a file too large for the camera leaves nothing behind) and against `sim:`, which takes no uploads.
@Suite(.tags(.port), .notInFastRun) struct UploadShellTests {
    final class Fixture {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("msh-put-\(UUID().uuidString)").path
        var card: String { base + "/card" }
        var local: String { base + "/local" }

        init() throws {
            try FileManager.default.createDirectory(atPath: card + "/DCIM/100A", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: local, withIntermediateDirectories: true)
            try Data("a note\n".utf8).write(to: URL(fileURLWithPath: local + "/note.txt"))
            try Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: URL(fileURLWithPath: local + "/My Clip.MP4"))
        }

        deinit { try? FileManager.default.removeItem(atPath: base) }

        func shell(_ url: String, _ commands: String) throws -> ProcessResult {
            let result = try ProcessRunner.run(
                BuildProducts.mediashell, ["--camera", url, "-c", commands], directory: local,
                environment: ["NO_COLOR": "1"], timeout: 60)
            #expect(!result.timedOut, "the shell did not finish: \(result.stderr)")
            return result
        }
    }

    @Test func putMkdirAndRmdirAgainstAWritableServe() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: ["--writable", "--max-upload", "100000", fixture.card])
        defer { _ = server.stop() }
        let url = "ptpip:127.0.0.1:\(server.port)"

        let put = try fixture.shell(url, "cd DCIM/100A; put note.txt; mkdir NEW; put -o NEW note.txt; ls NEW")
        #expect(put.status == 0, "\(put.stderr)")
        #expect(put.stdout.contains("put note.txt -> /DCIM/100A/note.txt (7 B)"), "\(put.stdout)")
        #expect(put.stdout.contains("made /DCIM/100A/NEW"), "\(put.stdout)")
        #expect(put.stdout.contains("put note.txt -> /DCIM/100A/NEW/note.txt"), "\(put.stdout)")
        #expect(FileManager.default.contentsEqual(atPath: fixture.card + "/DCIM/100A/note.txt", andPath: fixture.local + "/note.txt"))
        #expect(FileManager.default.contentsEqual(atPath: fixture.card + "/DCIM/100A/NEW/note.txt", andPath: fixture.local + "/note.txt"))

        // A name already there, a folder that is not empty, a file over the camera's limit: each refused in
        // one line, and the too-large file leaves nothing on the card.
        let refused = try fixture.shell(url, "cd DCIM/100A; -put note.txt; -rmdir NEW; -put 'My Clip.MP4'; ls")
        #expect(refused.status == 0, "the '-' lines go on: \(refused.stderr)")
        let errors = refused.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == 3, "\(errors)")
        #expect(errors.first?.contains("/DCIM/100A/note.txt is already on the camera") == true, "\(errors)")
        #expect(errors.dropFirst().first?.contains("/DCIM/100A/NEW is not empty (1 item)") == true, "\(errors)")
        #expect(errors.last?.contains("put: My Clip.MP4:") == true, "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: fixture.card + "/DCIM/100A/My Clip.MP4"))
        #expect(!refused.stdout.contains("My Clip"), "\(refused.stdout)")

        let removed = try fixture.shell(url, "cd DCIM/100A/NEW; edit; delete note.txt; done; rmdir /DCIM/100A/NEW; pwd")
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdout.contains("deleted folder /DCIM/100A/NEW"), "\(removed.stdout)")
        #expect(removed.stdout.hasSuffix("/DCIM/100A\n"), "rmdir of the current folder goes up: \(removed.stdout)")
        #expect(!FileManager.default.fileExists(atPath: fixture.card + "/DCIM/100A/NEW"))
    }

    /// A read-only store (StorageInfo AccessCapability 1) on a camera that lists uploads all the same, as
    /// QEMU's read-only card does: put and mkdir are refused from StorageInfo, before anything is sent.
    @Test func aReadOnlyStoreRefusesPutAndMkdirBeforeSending() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: ["--read-only", "--quirks", "uploads-on-read-only", fixture.card])
        defer { _ = server.stop() }
        let result = try fixture.shell(
            "ptpip:127.0.0.1:\(server.port)", "cd DCIM/100A; -put note.txt; -mkdir NEW; storages")
        #expect(result.status == 0, "the '-' lines go on: \(result.stderr)")
        let errors = result.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.first?.contains("put: note.txt: the storage is read-only") == true, "\(errors)")
        #expect(errors.last?.contains("/DCIM/100A/NEW: the storage is read-only") == true, "\(errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.card + "/DCIM/100A").isEmpty)
    }

    @Test func aCameraWithoutUploadsRefusesClearly() throws {
        let fixture = try Fixture()
        for command in ["put note.txt", "mkdir NEW"] {
            let result = try fixture.shell("sim:", command)
            #expect(result.status == 1)
            #expect(result.stderr.contains("this camera does not take uploads"), "\(result.stderr)")
        }
    }
}
