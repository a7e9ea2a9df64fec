import Foundation
import TestSupport
import Testing

/// The shell binary against Debian's umtp-responder (1.3.10), a third-party MTP responder nobody here
/// wrote, made a PTP/IP camera by `../shared/peers` (see UMTPPeer). It refuses GetDeviceInfo outside a
/// session, answers a vanished client's next OpenSession with a 13-byte SessionAlreadyOpen, reports every
/// file as 0x3000, has no GetThumb, and stops answering after a GetObjectHandles for storage 0xFFFFFFFF
/// (which makes gphoto2 hang): the client copes with each. gphoto2 is run against the same peer as the
/// reference. Each test starts its own peer on a scratch copy of the card.
@Suite(
    "Shell against Debian's umtp-responder", .serialized,
    .enabled(if: UMTPPeer.isEnabled, "set MEDIASHELL_UMTP_PEERS (scripts/test does, where ../shared/peers is)"), .tags(.process, .port), .notInFastRun)
struct UMTPInteropTests {
    /// How the peer is served: as Debian ships it (GetObjectPropList answering the root's listing with
    /// handle 0 itself, which the listing drops and falls back from), or with GetObjectPropList hidden from
    /// its DeviceInfo (the per-object listing path from the start).
    enum Serving: String, CaseIterable, CustomTestStringConvertible {
        case asShipped
        case withoutPropList
        var hidden: [UInt16] { self == .withoutPropList ? [0x9805] : [] }
        var testDescription: String { rawValue }
    }

    /// The card: the demo media (photos with EXIF thumbnails, MP4 and MOV videos, sidecars), a 3 MB file and
    /// an empty one, in two folders.
    final class Fixture {
        let base: String
        let source: String
        let downloads: String
        static let folders = ["DCIM/100TEST", "MISC"]

        init() throws {
            base = FileManager.default.temporaryDirectory.appendingPathComponent("umtp-\(UUID().uuidString)").path
            source = base + "/source"
            downloads = base + "/downloads"
            for folder in Self.folders { try FileManager.default.createDirectory(atPath: source + "/" + folder, withIntermediateDirectories: true) }
            try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
            let demo = BuildProducts.packageRoot.appendingPathComponent("Sources/VirtualCamera/DemoMedia").path
            for name in try FileManager.default.contentsOfDirectory(atPath: demo) {
                try FileManager.default.copyItem(atPath: demo + "/" + name, toPath: source + "/DCIM/100TEST/" + name)
            }
            let big = (0..<3_000_017).map { UInt8(truncatingIfNeeded: ($0 &* 131) ^ ($0 >> 9)) }
            try Data(big).write(to: URL(fileURLWithPath: source + "/MISC/big.bin"))
            try Data().write(to: URL(fileURLWithPath: source + "/MISC/empty.bin"))
        }

        deinit { try? FileManager.default.removeItem(atPath: base) }

        /// The files of `folder` on the card, by name.
        func files(in folder: String, of card: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: card + "/" + folder).sorted()
        }

        func peer(_ serving: Serving) throws -> UMTPPeer {
            let scratch = base + "/peer-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            return try UMTPPeer(serving: source, scratch: scratch, hiddenOperations: serving.hidden)
        }

        func shell(_ peer: UMTPPeer, _ commands: String, timeout: TimeInterval = 120) throws -> ProcessResult {
            try ProcessRunner.run(
                BuildProducts.mediashell,
                ["--camera", peer.url, "--download-dir", downloads, "--debug-ptp", base + "/trace.txt", "-c", commands],
                environment: ["NO_COLOR": "1"], timeout: timeout)
        }

        var trace: String { (try? String(contentsOfFile: base + "/trace.txt", encoding: .utf8)) ?? "" }
    }

    @Test func theResponderIsInstalled() {
        #expect(FileManager.default.isExecutableFile(atPath: UMTPPeer.responder), "umtp-responder is missing: run scripts/setup")
    }

    @Test(arguments: Serving.allCases)
    func opensAndListsEveryFile(_ serving: Serving) throws {
        let fixture = try Fixture()
        let peer = try fixture.peer(serving)
        defer { peer.stop() }
        let result = try fixture.shell(peer, "summary; " + Fixture.folders.map { "cd /\($0); ls" }.joined(separator: "; "))
        #expect(result.status == 0, "\(result.stderr)\n\(fixture.trace.suffix(3000))")
        #expect(result.stdout.contains("Viveris Technologies uMTP-Responder"), "\(result.stdout)")
        let listed = Set(result.stdout.split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespaces) })
        for folder in Fixture.folders {
            for name in try fixture.files(in: folder, of: fixture.source) { #expect(listed.contains(name), "\(folder)/\(name) not listed") }
        }
        // It refuses GetDeviceInfo outside a session: the session is opened first.
        #expect(fixture.trace.contains("> command  OpenSession (0x1002) tid=0"))
        #expect(!fixture.trace.contains("GetObjectHandles (0x1007) tid=") || !fixture.trace.contains("params=[0xFFFFFFFF, 0x0"))
    }

    @Test(arguments: Serving.allCases)
    func fetchEverythingIsByteIdentical(_ serving: Serving) throws {
        let fixture = try Fixture()
        let peer = try fixture.peer(serving)
        defer { peer.stop() }
        let result = try fixture.shell(peer, Fixture.folders.map { "cd /\($0); fetch *" }.joined(separator: "; "))
        #expect(result.status == 0, "\(result.stderr)")
        for folder in Fixture.folders {
            for name in try fixture.files(in: folder, of: fixture.source) {
                let fetched = FileManager.default.contents(atPath: fixture.downloads + "/" + name)
                #expect(fetched != nil && fetched == FileManager.default.contents(atPath: fixture.source + "/\(folder)/\(name)"), "\(name)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.downloads).filter { $0.hasSuffix(".part") }.isEmpty)
    }

    /// `kill -9` in the middle of a download leaves a `.part`; the next fetch continues it, from a peer that
    /// still holds the dead client's session.
    @Test(arguments: Serving.allCases)
    func fetchResumesAfterTheClientIsKilled(_ serving: Serving) throws {
        let fixture = try Fixture()
        let peer = try fixture.peer(serving)
        defer { peer.stop() }
        let part = fixture.downloads + "/big.bin.part"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuildProducts.mediashell)
        process.arguments = ["--camera", peer.url, "--download-dir", fixture.downloads, "-c", "set limit-rate 500k; cd /MISC; fetch big.bin"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Woken as the .part grows (inotify on the download folder) or the client ends, for at most 60 s.
        var size: UInt64 = 0
        _ = try waitForFile(in: fixture.downloads, until: { size = fileSize(part); return size >= 1_000_000 }, orEndOf: process, timeout: 60)
        kill(process.processIdentifier, SIGKILL)
        _ = waitForExit(process, timeout: 10)
        #expect(size >= 1_000_000 && size < 3_000_017, "the .part had \(size) bytes when the client was killed")

        let result = try fixture.shell(peer, "cd /MISC; fetch big.bin")
        #expect(result.status == 0, "\(result.stderr)\n\(fixture.trace.prefix(3000))")
        #expect(result.stdout.contains("continued from"), "\(result.stdout)")
        #expect(FileManager.default.contents(atPath: fixture.downloads + "/big.bin") == FileManager.default.contents(atPath: fixture.source + "/MISC/big.bin"))
        #expect(!FileManager.default.fileExists(atPath: part))
    }

    @Test(arguments: Serving.allCases)
    func deleteRemovesTheFileFromTheResponderDisk(_ serving: Serving) throws {
        let fixture = try Fixture()
        let peer = try fixture.peer(serving)
        defer { peer.stop() }
        let victim = peer.card + "/DCIM/100TEST/README.txt"
        #expect(FileManager.default.fileExists(atPath: victim))
        let result = try fixture.shell(peer, "cd /DCIM/100TEST; delete --force README.txt; -ls README.txt; ls")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("deleted /DCIM/100TEST/README.txt"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: victim), "README.txt is still on the responder's disk")
        #expect(FileManager.default.fileExists(atPath: peer.card + "/DCIM/100TEST/photo_portrait.jpg"))
        #expect(result.stderr.contains("no such file or folder: README.txt"), "\(result.stderr)")
    }

    /// No GetThumb on this responder: the thumbnail comes from the photo's own EXIF, read by a partial read.
    @Test(arguments: Serving.allCases)
    func thumbnailsComeFromEXIFWithoutGetThumb(_ serving: Serving) throws {
        let fixture = try Fixture()
        let peer = try fixture.peer(serving)
        defer { peer.stop() }
        let saved = fixture.base + "/thumbs"
        let result = try fixture.shell(peer, "cd /DCIM/100TEST; ls --thumbs; thumb photo_landscape.jpg; thumb --save '\(saved)' photo_landscape.jpg photo_portrait.jpg")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("photo_landscape.jpg: thumbnail 160x120 (EXIF)"), "\(result.stdout)")
        // Only operations its DeviceInfo lists are sent: never GetThumb.
        #expect(!fixture.trace.contains("GetThumb"), "GetThumb was sent to a responder that does not list it")
        for name in ["photo_landscape.jpg", "photo_portrait.jpg"] {
            let thumbnail = try #require(FileManager.default.contents(atPath: saved + "/\(name).thumb.jpg"), "\(name)")
            #expect(thumbnail.prefix(2) == Data([0xFF, 0xD8]))
            // The EXIF thumbnail as exiftool reads it from the original.
            if let exiftool = ProcessRunner.which("exiftool") {
                let reference = try ProcessRunner.run(exiftool, ["-b", "-ThumbnailImage", fixture.source + "/DCIM/100TEST/" + name])
                #expect(Data(reference.stdout.utf8).count > 0)
                let original = try #require(FileManager.default.contents(atPath: fixture.source + "/DCIM/100TEST/" + name))
                #expect(original.range(of: thumbnail) != nil, "\(name): the thumbnail is not the one inside the file")
            }
        }
    }

    /// gphoto2 is the reference: whatever it gets from this peer, the shell gets too, byte-identical.
    /// (Against 1.3.10 its first listing asks GetObjectHandles for all stores, which is refused, and then
    /// the responder stops answering: gphoto2 gets nothing, while the shell gets every file.)
    @Test(.enabled(if: Gphoto2InteropTests.gphoto2 != nil), arguments: Serving.allCases)
    func whatGphoto2GetsTheShellGetsToo(_ serving: Serving) throws {
        let fixture = try Fixture()
        let home = fixture.base + "/gphoto2-home"
        let gphoto2Files = fixture.base + "/gphoto2-files"
        for folder in [home, gphoto2Files] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let reference = try fixture.peer(serving)
        let gphoto2 = try ProcessRunner.run(
            Gphoto2InteropTests.gphoto2!,
            ["--port", "ptpip:127.0.0.1:\(reference.port):\(reference.port)", "--camera", "PTP/IP Camera", "--get-all-files"],
            directory: gphoto2Files, environment: ["HOME": home, "LANG": "C"], timeout: 90)
        reference.stop()
        let got = try FileManager.default.contentsOfDirectory(atPath: gphoto2Files)
        let all = try Fixture.folders.flatMap { folder in try fixture.files(in: folder, of: fixture.source).map { (folder, $0) } }
        print("umtp-responder: gphoto2 got \(got.count) of \(all.count) files (status \(gphoto2.status), timed out: \(gphoto2.timedOut))")

        let peer = try fixture.peer(serving)
        defer { peer.stop() }
        let result = try fixture.shell(peer, Fixture.folders.map { "cd /\($0); fetch *" }.joined(separator: "; "))
        #expect(result.status == 0, "\(result.stderr)")
        for name in got {
            #expect(
                FileManager.default.contents(atPath: gphoto2Files + "/" + name) == FileManager.default.contents(atPath: fixture.downloads + "/" + name),
                "\(name): gphoto2's copy and ours differ")
        }
        for (folder, name) in all {
            #expect(FileManager.default.contents(atPath: fixture.downloads + "/" + name) == FileManager.default.contents(atPath: fixture.source + "/\(folder)/\(name)"), "\(name)")
        }
    }

    @Test(arguments: Serving.allCases)
    func playAndSeekStreamFromTheResponder(_ serving: Serving) throws {
        let fixture = try Fixture()
        let peer = try fixture.peer(serving)
        defer { peer.stop() }
        let result = try fixture.shell(
            peer, "set player none; cd /DCIM/100TEST; play landscape_faststart.mp4; pause; seek 1.5; status; stop; play portrait_moovend.mp4; pause; seek 50%; status; play clip.mov; pause; seek 0:01")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("playing landscape_faststart.mp4 (0:03.0, 30 fps, 640x360 landscape)"), "\(result.stdout)")
        // Seeks land on the frame shown at the time asked (issue 42), decoded from the keyframe before it.
        #expect(result.stdout.contains("seek 0:01.50: frame 45 of 90 at 0:01.50, decoded from keyframe #1 at 0:01.00"), "\(result.stdout)")
        #expect(result.stdout.contains("playing portrait_moovend.mp4 (0:02.0, 25 fps, 360x640 portrait)"))
        #expect(result.stdout.contains("seek 0:01.00: frame 25 of 50 at 0:01.00, keyframe #1"))
        #expect(result.stdout.contains("playing clip.mov (0:02.0, 25 fps, 640x360 landscape)"))
        #expect(fixture.trace.contains("GetPartialObject"), "playback reads ranges from the card")
    }
}
