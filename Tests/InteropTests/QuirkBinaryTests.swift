import Foundation
import TestSupport
import Testing

/// The quirks end to end, as a user meets them: `mediashell serve --quirks X` on a port chosen at run time
/// and `mediashell --camera ptpip:127.0.0.1:PORT -c '...'`, checking output, files and exit status. One
/// server per group of quirks (stopped at the end of its test); the stalls are in StalledCameraTerminalTests.
@Suite(.tags(.process, .port), .notInFastRun) struct QuirkBinaryTests {
    /// A card of four small photos and a 9 MB file (more than one 8 MiB piece), and a download folder.
    final class Fixture {
        let base: String
        let card: String
        let downloads: String
        static let photos = (1...4).map { "IMG_000\($0).JPG" }

        init() throws {
            base = FileManager.default.temporaryDirectory.appendingPathComponent("msh-quirks-\(UUID().uuidString)").path
            card = base + "/card"
            downloads = base + "/out"
            for folder in ["DCIM/100A", "MISC"] {
                try FileManager.default.createDirectory(atPath: card + "/" + folder, withIntermediateDirectories: true)
            }
            try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
            for (index, name) in Self.photos.enumerated() {
                try Self.pattern(1000 * (index + 1), seed: index).write(to: URL(fileURLWithPath: card + "/DCIM/100A/" + name))
            }
            try Self.pattern(9_000_000, seed: 9).write(to: URL(fileURLWithPath: card + "/MISC/big.bin"))
        }

        deinit { try? FileManager.default.removeItem(atPath: base) }

        /// `count` bytes, different for each seed and each 4 KiB block (built from one block: quick in debug).
        static func pattern(_ count: Int, seed: Int) -> Data {
            let block = (0..<4096).map { UInt8(truncatingIfNeeded: ($0 &* 131 &+ seed &* 7919) ^ ($0 >> 5)) }
            var data = Data(capacity: count)
            var index = 0
            while data.count < count {
                var piece = block
                piece[0] = UInt8(truncatingIfNeeded: index)
                piece[1] = UInt8(truncatingIfNeeded: index >> 8)
                data.append(contentsOf: piece.prefix(count - data.count))
                index += 1
            }
            return data
        }

        /// Serves the card with `quirks` (and `extra` arguments).
        func serve(_ quirks: String, _ extra: [String] = []) throws -> ServeProcess {
            try ServeProcess(arguments: ["--quirks", quirks] + extra + [card])
        }

        func shell(_ server: ServeProcess, _ commands: String) throws -> ProcessResult {
            let result = try ProcessRunner.run(
                BuildProducts.mediashell, ["--camera", "ptpip:127.0.0.1:\(server.port)", "-c", commands],
                environment: ["NO_COLOR": "1"], timeout: 60)
            #expect(!result.timedOut, "the shell did not finish: \(result.stderr)")
            return result
        }

        func same(_ local: String, as remote: String) -> Bool {
            FileManager.default.contentsEqual(atPath: downloads + "/" + local, andPath: card + "/" + remote)
        }

        var everyFile: [String] { Self.photos.map { "DCIM/100A/" + $0 } + ["MISC/big.bin"] }
    }

    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    /// `summary` lists only what the camera can do (issue 13): no thumbnails where GetThumb is not offered,
    /// no delete on a read-only card, no capture where the camera does not capture, the port kept.
    @Test func summaryListsOnlyWhatTheCameraCanDo() throws {
        let fixture = try Fixture()
        let server = try fixture.serve("no-thumbs", ["--read-only"])
        defer { _ = server.stop() }
        let result = try fixture.shell(server, "summary")
        #expect(result.status == 0, "\(result.stderr)")
        let can = try #require(Self.lines(result.stdout).first { $0.hasPrefix("can:") })
        #expect(can.contains("list in one request"), "\(can)")
        for absent in ["thumbnails", "delete", "capture", "upload"] { #expect(!can.contains(absent), "\(absent): \(can)") }
        #expect(result.stdout.contains("opened as:  ptpip:127.0.0.1:\(server.port)"))
    }

    /// uMTP-Responder's faults (the root listed as itself, lazy handles, every file 0x3000, no GetThumb,
    /// no storage 0xFFFFFFFF, a session that outlives its connection): every file listed and fetched
    /// byte-identical, and a second connection works.
    @Test func umtpPreset() throws {
        let fixture = try Fixture()
        let server = try fixture.serve("umtp")
        defer { _ = server.stop() }
        let listed = try fixture.shell(server, "ls -R")
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(Self.lines(listed.stdout) == fixture.everyFile)
        let fetched = try fixture.shell(server, "cd DCIM/100A; fetch -o '\(fixture.downloads)' *; cd /MISC; fetch -o '\(fixture.downloads)' big.bin")
        #expect(fetched.status == 0, "\(fetched.stderr)")
        for name in Fixture.photos { #expect(fixture.same(name, as: "DCIM/100A/" + name), "\(name)") }
        #expect(fixture.same("big.bin", as: "MISC/big.bin"))
    }

    /// libgphoto2's vcamera (transaction ids counted from the connection's start, OK for operations it does
    /// not have, no GetObjectPropList, a new folder per shot): it opens, lists, and capture names the file.
    @Test func vcameraPreset() throws {
        let fixture = try Fixture()
        let server = try fixture.serve("vcamera", ["--writable"])
        defer { _ = server.stop() }
        let result = try fixture.shell(server, "ls -R; set timeout 5; capture")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = Self.lines(result.stdout)
        #expect(Array(lines.prefix(5)) == fixture.everyFile)
        let captured = lines.filter { $0.hasPrefix("captured ") }
        #expect(captured.count == 1, "\(lines)")
        #expect(captured.first.map { $0.range(of: #"^captured /DCIM/[0-9]{3}[A-Z_]+/[^/ ]+\.JPG \("#, options: .regularExpression) != nil } == true,
            "a file in the new folder, not the folder: \(captured)")
    }

    /// A camera that sends no events: capture finds the new file by listing again, and says so.
    @Test func noEvents() throws {
        let fixture = try Fixture()
        let server = try fixture.serve("no-events,capture-new-folder", ["--writable"])
        defer { _ = server.stop() }
        let result = try fixture.shell(server, "set timeout 1; capture")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("the camera sent no events; its folders were listed again to find the new file"))
        #expect(result.stdout.range(of: #"captured /DCIM/[^ ]+/[^/ ]+\.JPG \("#, options: .regularExpression) != nil, "\(result.stdout)")
    }

    /// Several objects of one name (and case variants): all listed, told apart, and each fetched under a
    /// name of its own.
    @Test func duplicateNames() throws {
        let fixture = try Fixture()
        let server = try fixture.serve("duplicate-names")
        defer { _ = server.stop() }
        let result = try fixture.shell(server, "cd DCIM/100A; ls; fetch -o '\(fixture.downloads)' *")
        #expect(result.status == 0, "\(result.stderr)")
        let fetched = try FileManager.default.contentsOfDirectory(atPath: fixture.downloads).filter { !$0.hasSuffix(".part") }
        #expect(fetched.count == 4, "every object delivered: \(fetched)")
        let originals = Fixture.photos.map { FileManager.default.contents(atPath: fixture.card + "/DCIM/100A/" + $0) }
        let delivered = fetched.map { FileManager.default.contents(atPath: fixture.downloads + "/" + $0) }
        #expect(Set(delivered.compactMap { $0 }) == Set(originals.compactMap { $0 }), "each object's own bytes")
    }

    /// One unreadable ObjectInfo and one name that is not valid UTF-16: a warning line each, the rest of
    /// the folder listed and fetched.
    @Test func damagedObjects() throws {
        let fixture = try Fixture()
        let server = try fixture.serve("truncated-objectinfo,invalid-utf16")
        defer { _ = server.stop() }
        let result = try fixture.shell(server, "ls -R; cd DCIM/100A; fetch -o '\(fixture.downloads)' IMG_0001.JPG IMG_0004.JPG")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("(left out)"), "\(result.stderr)")
        #expect(result.stderr.contains("its name is not valid UTF-16 (shown with U+FFFD)"), "\(result.stderr)")
        let listed = Self.lines(result.stdout).filter { $0.hasPrefix("DCIM/") || $0.hasPrefix("MISC/") }
        #expect(listed.count == 4, "all but the unreadable one: \(listed)")
        #expect(fixture.same("IMG_0001.JPG", as: "DCIM/100A/IMG_0001.JPG"))
        #expect(fixture.same("IMG_0004.JPG", as: "DCIM/100A/IMG_0004.JPG"))
    }

    /// No partial reads, every file 0x3000, dimensions 0: a 9 MB file arrives whole through GetObject.
    @Test func noPartialReadsAndGenericFormats() throws {
        let fixture = try Fixture()
        let server = try fixture.serve("no-partial,generic-format,zero-dimensions")
        defer { _ = server.stop() }
        let result = try fixture.shell(server, "cd MISC; fetch -o '\(fixture.downloads)' big.bin; cd /DCIM/100A; info IMG_0001.JPG")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.same("big.bin", as: "MISC/big.bin"))
        #expect(!FileManager.default.fileExists(atPath: fixture.downloads + "/big.bin.part"))
    }

    /// Every file 0x3000, dimensions 0, and a name without an extension: `info` tells the kind from the
    /// first bytes and reads the dimensions from the header, never showing 0.
    @Test func kindFromContent() throws {
        let fixture = try Fixture()
        let photo = BuildProducts.packageRoot.appendingPathComponent("Sources/VirtualCamera/DemoMedia/photo_landscape.jpg").path
        try FileManager.default.copyItem(atPath: photo, toPath: fixture.card + "/DCIM/100A/PHOTO0001")
        let server = try fixture.serve("generic-format,zero-dimensions")
        defer { _ = server.stop() }
        let result = try fixture.shell(server, "cd DCIM/100A; info PHOTO0001")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("jpeg (from its first bytes"), "\(result.stdout)")
        #expect(result.stdout.range(of: #"dimensions: +[1-9][0-9]*x[1-9][0-9]*"#, options: .regularExpression) != nil, "\(result.stdout)")
        #expect(!result.stdout.contains("0x0"))
    }

    /// The same in `ls -l`: a photo and a video without extensions get their kinds from their first bytes,
    /// and videos whose dimensions the listing gives as 0 show those of their headers (read for the rows
    /// shown, through partial reads), in a listing of the folder and of the one file alike.
    @Test func kindAndVideoSizeFromContentInTheLongListing() throws {
        let fixture = try Fixture()
        let media = BuildProducts.packageRoot.appendingPathComponent("Sources/VirtualCamera/DemoMedia").path
        for (source, name) in [("photo_landscape.jpg", "PHOTO0001"), ("landscape_faststart.mp4", "CLIP0001"),
                               ("landscape_faststart.mp4", "clip.mp4")] {
            try FileManager.default.copyItem(atPath: media + "/" + source, toPath: fixture.card + "/DCIM/100A/" + name)
        }
        let server = try fixture.serve("generic-format,zero-dimensions")
        defer { _ = server.stop() }
        let result = try fixture.shell(server, "cd DCIM/100A; ls -l; ls -l CLIP0001")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = Self.lines(result.stdout)
        func row(_ name: String) -> [String] { lines.filter { $0.hasSuffix("  " + name) } }
        #expect(row("PHOTO0001").first?.contains(" photo ") == true, "\(lines)")
        #expect(row("CLIP0001").count == 2, "\(lines)")
        for line in row("CLIP0001") + row("clip.mp4") {
            #expect(line.contains(" video ") && line.contains("640x360"), "\(line)")
        }
        #expect(!result.stdout.contains("0x0"), "\(result.stdout)")
    }

    /// A tree the device describes wrongly (Depth ignored, folders listing themselves and their parent):
    /// each file listed once.
    @Test func treesThatLoop() throws {
        let fixture = try Fixture()
        let server = try fixture.serve("proplist-ignores-depth,handles-list-self,proplist-lists-self")
        defer { _ = server.stop() }
        let result = try fixture.shell(server, "ls -R")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.lines(result.stdout) == fixture.everyFile)
    }

    /// Fields a listing can check (issue 26): ObjectInfo with a 64-bit size (every later field 4 bytes on),
    /// StorageIDs that are no store, a ParentObject that is no folder. Every file listed and fetched
    /// byte-identical over PTP/IP, through property lists and through ObjectInfo.
    @Test(arguments: [
        "objectinfo-size64,no-proplist", "storage-id-not-a-store", "storage-id-not-a-store,no-proplist",
        "parent-not-a-folder,no-proplist", "objectinfo-size64,storage-id-not-a-store,parent-not-a-folder",
    ])
    func fieldsTheListingChecks(_ quirks: String) throws {
        let fixture = try Fixture()
        let server = try fixture.serve(quirks)
        defer { _ = server.stop() }
        let listed = try fixture.shell(server, "ls -R")
        #expect(listed.status == 0, "\(quirks): \(listed.stderr)")
        #expect(Self.lines(listed.stdout) == fixture.everyFile, "\(quirks)")
        let fetched = try fixture.shell(server, "cd DCIM/100A; fetch -o '\(fixture.downloads)' *; cd /MISC; fetch -o '\(fixture.downloads)' big.bin")
        #expect(fetched.status == 0, "\(quirks): \(fetched.stderr)")
        for name in Fixture.photos { #expect(fixture.same(name, as: "DCIM/100A/" + name), "\(quirks): \(name)") }
        #expect(fixture.same("big.bin", as: "MISC/big.bin"), "\(quirks)")
    }

    /// A card whose objects come without names: the script stops at its first command with status 1 and
    /// one line saying what was seen; nothing is listed, no "unnamed" folder, no "0 files, up-to-date".
    @Test(arguments: ["nameless-objects", "nameless-objects,no-proplist"])
    func namelessObjectsFailTheScript(_ quirks: String) throws {
        let fixture = try Fixture()
        let server = try fixture.serve(quirks)
        defer { _ = server.stop() }
        let result = try fixture.shell(server, "ls -R; pwd")
        #expect(result.status == 1, "\(quirks): \(result.stdout) \(result.stderr)")
        #expect(Self.lines(result.stderr).count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("error: ls: the camera named 8 objects but none had a name"), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        let state = try fixture.shell(server, "state")
        #expect(state.stdout.hasPrefix("unreadable: "), "\(state.stdout)")
    }

    /// An unknown quirk is refused, naming it.
    @Test func anUnknownQuirkIsRefused() throws {
        let result = try ProcessRunner.run(BuildProducts.mediashell, ["serve", "--listen", "127.0.0.1:0", "--quirks", "no-such-quirk"], timeout: 30)
        #expect(result.status != 0)
        #expect(result.stderr.contains("unknown quirk 'no-such-quirk'"), "\(result.stderr)")
    }
}
