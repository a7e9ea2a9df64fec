import Foundation
import TestSupport
import Testing

/// gphoto2, an independent PTP/IP initiator, against `mediashell serve` on a folder.
@Suite(.serialized, .tags(.process, .port), .notInFastRun) struct Gphoto2InteropTests {
    static let gphoto2 = ProcessRunner.which("gphoto2")

    /// A card folder with photos, a video and one file larger than 64 MiB.
    final class Fixture {
        let card: String
        let home: String
        let work: String
        var files: [String: [UInt8]] = [:]

        init(bigFile: Bool = false) throws {
            let base = FileManager.default.temporaryDirectory.appendingPathComponent("interop-\(UUID().uuidString)").path
            card = base + "/card"
            home = base + "/home"
            work = base + "/work"
            for dir in [card + "/DCIM/100MEDIA", card + "/DCIM/101MEDIA", home, work] {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            }
            var generator = SeededRandom(test: "gphoto2 interop card")
            func random(_ n: Int) -> [UInt8] { generator.bytes(n) }
            var layout = [
                "DCIM/100MEDIA/DJI_0001.JPG": 150_000, "DCIM/100MEDIA/DJI_0002.MP4": 3_000_001,
                "DCIM/100MEDIA/DJI_0002.SRT": 1_234, "DCIM/101MEDIA/DJI_0010.JPG": 1,
            ]
            if bigFile { layout["DCIM/101MEDIA/DJI_0011.MP4"] = 70 * 1024 * 1024 + 5 }
            for (path, size) in layout {
                let bytes = random(size)
                files[path] = bytes
                try Data(bytes).write(to: URL(fileURLWithPath: card + "/" + path))
            }
        }

        func gphoto2(_ port: UInt16, _ arguments: [String], timeout: TimeInterval = 120) throws -> ProcessResult {
            try ProcessRunner.run(
                Gphoto2InteropTests.gphoto2!,
                ["--port", "ptpip:127.0.0.1:\(port):\(port)", "--camera", "PTP/IP Camera"] + arguments,
                directory: work, environment: ["HOME": home, "LANG": "C"], timeout: timeout)
        }

        deinit { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: card).deletingLastPathComponent().path) }
    }

    @Test func gphoto2IsInstalled() {
        #expect(Self.gphoto2 != nil, "gphoto2 is missing: run scripts/setup")
    }

    @Test(.enabled(if: gphoto2 != nil)) func summaryAndListing() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: [fixture.card])
        defer { _ = server.stop() }
        let summary = try fixture.gphoto2(server.port, ["--summary"])
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(summary.stdout.contains("Manufacturer: mediashell"))
        #expect(summary.stdout.contains("Model: Virtual Camera"))

        let list = try fixture.gphoto2(server.port, ["--list-files"])
        #expect(list.status == 0, "\(list.stderr)")
        for path in fixture.files.keys {
            #expect(list.stdout.contains(URL(fileURLWithPath: path).lastPathComponent), "\(path) missing in\n\(list.stdout)")
        }
        #expect(list.stdout.contains("/DCIM/100MEDIA"))
        #expect(list.stdout.contains("/DCIM/101MEDIA"))
    }

    /// What serve says to give gphoto2 works as written (issue 48, item 6c): `--port ptpip:HOST:PORT`
    /// alone makes gphoto2 look for the events on 15740 and fail with "I/O problem".
    @Test(.enabled(if: gphoto2 != nil)) func serveSaysHowGphoto2ReachesIt() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: [fixture.card])
        defer { _ = server.stop() }
        #expect(server.waitForLog("gphoto2 reaches it with", count: 1), "\(server.log)")
        let line = try #require(server.log.split(separator: "\n").first { $0.contains("gphoto2 reaches it with") })
        #expect(line.hasSuffix("--port ptpip:127.0.0.1:\(server.port):\(server.port) --camera 'PTP/IP Camera'"), "\(line)")
        let port = try #require(line.split(separator: " ").first { $0.hasPrefix("ptpip:") }.map(String.init))
        let summary = try ProcessRunner.run(
            Self.gphoto2!, ["--port", port, "--camera", "PTP/IP Camera", "--summary"],
            directory: fixture.work, environment: ["HOME": fixture.home, "LANG": "C"], timeout: 120)
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(summary.stdout.contains("Manufacturer: mediashell"), "\(summary.stdout)")
    }

    @Test(.enabled(if: gphoto2 != nil)) func getAllFilesIsByteIdenticalIncludingALargeFile() throws {
        let fixture = try Fixture(bigFile: true)
        let server = try ServeProcess(arguments: ["--read-only", fixture.card])
        defer { _ = server.stop() }
        let result = try fixture.gphoto2(server.port, ["--get-all-files"], timeout: 300)
        #expect(result.status == 0, "\(result.stderr)")
        for (path, bytes) in fixture.files {
            let local = fixture.work + "/" + URL(fileURLWithPath: path).lastPathComponent
            let got = FileManager.default.contents(atPath: local).map(Array.init)
            #expect(got?.count == bytes.count, "\(path)")
            #expect(got == bytes, "\(path) differs")
        }
    }

    /// gphoto2 copes with a 64-bit ObjectCompressedSize (libgphoto2 detects the layout) and with a parent
    /// that is no folder: it lists and fetches every file byte-identical from our camera imitating either.
    /// (Against `storage-id-not-a-store` it lists nothing: not checked here.)
    @Test(.enabled(if: gphoto2 != nil), arguments: ["objectinfo-size64", "parent-not-a-folder"])
    func getAllFilesFromAQuirkyListing(_ quirks: String) throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: ["--read-only", "--quirks", quirks, fixture.card])
        defer { _ = server.stop() }
        let result = try fixture.gphoto2(server.port, ["--get-all-files"])
        #expect(result.status == 0, "\(quirks): \(result.stderr)")
        for (path, bytes) in fixture.files {
            let local = fixture.work + "/" + URL(fileURLWithPath: path).lastPathComponent
            #expect(FileManager.default.contents(atPath: local).map(Array.init) == bytes, "\(quirks): \(path) differs")
        }
    }

    @Test(.enabled(if: gphoto2 != nil)) func deleteRemovesTheFileFromTheFolder() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: ["--writable", fixture.card])
        defer { _ = server.stop() }
        let result = try fixture.gphoto2(server.port, ["--folder", "/store_00010001/DCIM/100MEDIA", "--delete-file", "DJI_0001.JPG"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.card + "/DCIM/100MEDIA/DJI_0001.JPG"))
        #expect(FileManager.default.fileExists(atPath: fixture.card + "/DCIM/100MEDIA/DJI_0002.MP4"))
    }

    @Test(.enabled(if: gphoto2 != nil)) func readOnlyServerRefusesDeletes() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: ["--read-only", fixture.card])
        defer { _ = server.stop() }
        // gphoto2 reads the store's read-only access capability and does not even try (it exits 0 silently,
        // as it does for most failures); what matters is that the file stays.
        let result = try fixture.gphoto2(server.port, ["--folder", "/store_00010001/DCIM/100MEDIA", "--delete-file", "DJI_0001.JPG"])
        #expect(!result.timedOut)
        #expect(FileManager.default.fileExists(atPath: fixture.card + "/DCIM/100MEDIA/DJI_0001.JPG"))
    }

    /// Safe by default (issue 29): without --writable, gphoto2's delete and capture change nothing on the
    /// card, and serve's first line says the card is read-only.
    @Test(.enabled(if: gphoto2 != nil)) func deleteAndCaptureAreRefusedWithoutWritable() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: [fixture.card])
        defer { _ = server.stop() }
        #expect(server.log.contains("(read-only: --writable allows deletes, captures and uploads)"), "\(server.log)")
        let before = try FileManager.default.subpathsOfDirectory(atPath: fixture.card).sorted()
        let delete = try fixture.gphoto2(server.port, ["--folder", "/store_00010001/DCIM/100MEDIA", "--delete-file", "DJI_0001.JPG"])
        #expect(!delete.timedOut)
        let capture = try fixture.gphoto2(server.port, ["--capture-image"])
        #expect(!capture.timedOut)
        // The camera offers no capture on a read-only card: gphoto2 says it cannot and fails.
        #expect(capture.status != 0, "\(capture.stdout)\n\(capture.stderr)")
        #expect(!capture.stdout.contains("DJI_0011.JPG"), "\(capture.stdout)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: fixture.card).sorted() == before)
    }

    @Test(.enabled(if: gphoto2 != nil)) func captureAddsAFileToTheFolder() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: ["--writable", fixture.card])
        defer { _ = server.stop() }
        let before = try FileManager.default.contentsOfDirectory(atPath: fixture.card + "/DCIM/101MEDIA")
        let result = try fixture.gphoto2(server.port, ["--capture-image"])
        #expect(result.status == 0, "\(result.stderr)\n\(result.stdout)")
        let after = try FileManager.default.contentsOfDirectory(atPath: fixture.card + "/DCIM/101MEDIA")
        #expect(Set(after).subtracting(before) == ["IMG_0001.JPG"])
        #expect(result.stdout.contains("IMG_0001.JPG"))
    }

    @Test(.enabled(if: gphoto2 != nil)) func thumbnailOfAPhoto() throws {
        let fixture = try Fixture()
        let demo = BuildProducts.packageRoot.appendingPathComponent("Sources/VirtualCamera/DemoMedia/photo_landscape.jpg").path
        try FileManager.default.removeItem(atPath: fixture.card + "/DCIM/100MEDIA/DJI_0001.JPG")
        try FileManager.default.copyItem(atPath: demo, toPath: fixture.card + "/DCIM/100MEDIA/DJI_0001.JPG")
        let server = try ServeProcess(arguments: [fixture.card])
        defer { _ = server.stop() }
        let result = try fixture.gphoto2(server.port, ["--folder", "/store_00010001/DCIM/100MEDIA", "--get-thumbnail", "DJI_0001.JPG"])
        #expect(result.status == 0, "\(result.stderr)\n\(result.stdout)")
        let thumbs = try FileManager.default.contentsOfDirectory(atPath: fixture.work).filter { $0.hasPrefix("thumb_") }
        #expect(thumbs.count == 1)
        let bytes = try #require(FileManager.default.contents(atPath: fixture.work + "/" + (thumbs.first ?? "")))
        #expect(bytes.starts(with: [0xFF, 0xD8]))
    }

    @Test(.enabled(if: gphoto2 != nil)) func uploadMkdirAndRmdirAgainstAWritableServer() throws {
        let fixture = try Fixture()
        let bytes = (0..<300_001).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        try Data(bytes).write(to: URL(fileURLWithPath: fixture.work + "/UPLOAD.JPG"))
        let server = try ServeProcess(arguments: ["--writable", fixture.card])
        defer { _ = server.stop() }
        let upload = try fixture.gphoto2(server.port, ["--folder", "/store_00010001/DCIM/100MEDIA", "--upload-file", "UPLOAD.JPG"])
        #expect(upload.status == 0, "\(upload.stderr)")
        #expect(FileManager.default.contents(atPath: fixture.card + "/DCIM/100MEDIA/UPLOAD.JPG").map(Array.init) == bytes)
        let mkdir = try fixture.gphoto2(server.port, ["--folder", "/store_00010001/DCIM", "--mkdir", "200TRIP"])
        #expect(mkdir.status == 0, "\(mkdir.stderr)")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: fixture.card + "/DCIM/200TRIP", isDirectory: &isDirectory) && isDirectory.boolValue)
        let list = try fixture.gphoto2(server.port, ["--list-folders"])
        #expect(list.stdout.contains("/DCIM/200TRIP"), "\(list.stdout)")
        let rmdir = try fixture.gphoto2(server.port, ["--folder", "/store_00010001/DCIM", "--rmdir", "200TRIP"])
        #expect(rmdir.status == 0, "\(rmdir.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.card + "/DCIM/200TRIP"))
        // Nothing but the upload was added: no part files.
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.card + "/DCIM/100MEDIA").sorted()
            == ["DJI_0001.JPG", "DJI_0002.MP4", "DJI_0002.SRT", "UPLOAD.JPG"])
    }

    @Test(.enabled(if: gphoto2 != nil)) func uploadsAreRefusedByDefault() throws {
        let fixture = try Fixture()
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: fixture.work + "/UPLOAD.JPG"))
        let server = try ServeProcess(arguments: [fixture.card])
        defer { _ = server.stop() }
        let upload = try fixture.gphoto2(server.port, ["--folder", "/store_00010001/DCIM/100MEDIA", "--upload-file", "UPLOAD.JPG"])
        #expect(!upload.timedOut)
        _ = try fixture.gphoto2(server.port, ["--folder", "/store_00010001/DCIM", "--mkdir", "200TRIP"])
        _ = try fixture.gphoto2(server.port, ["--folder", "/store_00010001/DCIM", "--rmdir", "101MEDIA"])
        #expect(!FileManager.default.fileExists(atPath: fixture.card + "/DCIM/100MEDIA/UPLOAD.JPG"))
        #expect(!FileManager.default.fileExists(atPath: fixture.card + "/DCIM/200TRIP"))
        #expect(FileManager.default.fileExists(atPath: fixture.card + "/DCIM/101MEDIA/DJI_0010.JPG"))
    }
}
