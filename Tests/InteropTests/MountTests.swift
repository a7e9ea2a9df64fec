import Foundation
import POSIX
import TestSupport
import Testing

/// Whether FUSE mounts can be made here: /dev/fuse usable and fusermount3 installed (CI has both; a
/// container without them skips these tests, saying so).
enum FuseAvailability {
    static var available: Bool {
        access("/dev/fuse", R_OK | W_OK) == 0 && ProcessRunner.which("fusermount3") != nil
    }
}

/// `mediashell mount` running as its own process on a folder, until `unmount()`.
final class MountProcess: @unchecked Sendable {  // unchecked: Process is not Sendable; only the test's thread uses it
    let process = Process()
    let point: String
    private let stderr = PipeCollector()

    init(camera: String, point: String, extra: [String] = []) throws {
        self.point = point
        process.executableURL = URL(fileURLWithPath: BuildProducts.mediashell)
        process.arguments = ["mount", "--camera", camera] + extra + [point]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr.pipe
        try process.run()
        // Bounded: the line that says the mount is there (or the process's end, with its reason).
        guard stderr.wait(for: "unmounts", timeout: 30) else {
            process.terminate()
            throw MountFailed(log: stderr.text)
        }
    }

    var log: String { stderr.text }

    /// Waits (bounded) until the log holds `text` (it is read on a thread of its own, a moment after the
    /// mount wrote it).
    func waitForLog(_ text: String, timeout: Double = 10) -> Bool { stderr.wait(for: text, timeout: timeout) }

    /// `fusermount3 -u`, as a user unmounts; waits (bounded) for the process to end; its exit status.
    @discardableResult
    func unmount() -> Int32? {
        if process.isRunning {
            _ = try? ProcessRunner.run("/usr/bin/fusermount3", ["-u", point], timeout: 20)
        }
        guard stderr.waitForEnd(timeout: 20) else {
            process.terminate()
            _ = try? ProcessRunner.run("/usr/bin/fusermount3", ["-uz", point], timeout: 20)
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends `signal` and waits (bounded) for the process to end; its exit status.
    func stop(with signal: Int32) -> Int32? {
        kill(process.processIdentifier, signal)
        guard stderr.waitForEnd(timeout: 20) else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Waits (at most `timeout` seconds) until the mount shows `path` there (`present`) or gone, looking again
/// every 10 ms: the one wait in these tests not woken by an event, because no event of it reaches the test.
/// The test changes the card folder; the camera (`serve`, or the in-process card of `dir:`) hears of it by
/// inotify and tells the mount with ObjectAdded/ObjectRemoved; the mount applies it at its next call, while
/// the kernel answers lookups from its own entry cache for up to the mount's entry_timeout (1 s). inotify
/// on the mount point reports none of that (a FUSE server's own changes are not file system events here),
/// and the mount writes no line per camera change.
func waitForMountToShow(_ path: String, present: Bool, timeout: Double = 15) -> Bool {
    let deadline = Deadline.after(timeout)
    while FileManager.default.fileExists(atPath: path) != present {
        if deadline.hasPassed { return false }
        pause(until: .after(0.01))
    }
    return true
}

struct MountFailed: Error, CustomStringConvertible {
    let log: String
    var description: String { "mediashell mount did not start: \(log)" }
}

/// The card as a folder, used by the programs people use: `ls -lR`, `cp -r`, `rsync -a`, `ffprobe`, random
/// reads, writes, deletes, a camera that dies mid-read; against `serve` (PTP/IP on 127.0.0.1) and `sim:`.
@Suite(.serialized, .enabled(if: FuseAvailability.available, "FUSE mounts need /dev/fuse and fusermount3; neither is usable here"), .tags(.process, .port, .fuse), .notInFastRun)
struct MountTests {
    final class Fixture {
        let base: TemporaryFolder
        var card: String { base.path + "/card" }
        var point: String { base.path + "/mnt" }
        var local: String { base.path + "/local" }
        /// Files on the card, by path under it.
        var files: [String] = []

        init(bigSize: Int = 24 << 20) throws {
            base = try TemporaryFolder("msh-mount")
            let fm = FileManager.default
            for folder in [card + "/DCIM/100TEST", card + "/DCIM/101TEST", point, local] {
                try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            let media = BuildProducts.packageRoot.appendingPathComponent("Sources/VirtualCamera/DemoMedia").path
            try fm.copyItem(atPath: media + "/landscape_faststart.mp4", toPath: card + "/DCIM/100TEST/CLIP0001.MP4")
            try fm.copyItem(atPath: media + "/photo_landscape.jpg", toPath: card + "/DCIM/100TEST/IMG_0001.JPG")
            try fm.copyItem(atPath: media + "/photo_portrait.jpg", toPath: card + "/DCIM/101TEST/IMG 0002.JPG")
            var random = SeededRandom(test: "mount-big-file")
            try Data(random.bytes(bigSize)).write(to: URL(fileURLWithPath: card + "/DCIM/101TEST/BIG.BIN"))
            try Data("a note\n".utf8).write(to: URL(fileURLWithPath: card + "/DCIM/101TEST/NOTE.TXT"))
            files = ["DCIM/100TEST/CLIP0001.MP4", "DCIM/100TEST/IMG_0001.JPG", "DCIM/101TEST/IMG 0002.JPG",
                "DCIM/101TEST/BIG.BIN", "DCIM/101TEST/NOTE.TXT"]
        }
    }

    func run(_ tool: String, _ arguments: [String], timeout: TimeInterval = 120) throws -> ProcessResult {
        let path = try #require(ProcessRunner.which(tool), "\(tool) is needed")
        let result = try ProcessRunner.run(path, arguments, timeout: timeout)
        #expect(!result.timedOut, "\(tool) \(arguments) did not finish")
        return result
    }

    /// ls -lR, cp -r byte-identical, rsync -a twice (the second copies nothing), ffprobe, mpv, random reads.
    func readEverything(_ fixture: Fixture) throws {
        let listing = try run("ls", ["-lR", fixture.point])
        #expect(listing.status == 0, "\(listing.stderr)")
        for file in fixture.files {
            let name = (file as NSString).lastPathComponent
            let size = try FileManager.default.attributesOfItem(atPath: fixture.card + "/" + file)[.size] as! NSNumber
            #expect(listing.stdout.split(separator: "\n").contains { $0.hasSuffix(" " + name) && $0.contains(" \(size) ") },
                "ls -lR shows \(name) with its size \(size): \(listing.stdout)")
        }

        let copy = fixture.base.path + "/copy"
        let cp = try run("cp", ["-r", fixture.point, copy])
        #expect(cp.status == 0, "\(cp.stderr)")
        for file in fixture.files {
            #expect(FileManager.default.contentsEqual(atPath: copy + "/" + file, andPath: fixture.card + "/" + file), "\(file) byte-identical")
        }

        let mirror = fixture.base.path + "/mirror/"
        let first = try run("rsync", ["-a", "--itemize-changes", fixture.point + "/", mirror])
        #expect(first.status == 0, "\(first.stderr)")
        let sent = first.stdout.split(separator: "\n").filter { $0.hasPrefix(">f") }
        #expect(sent.count == fixture.files.count, "the first rsync copies every file: \(first.stdout)")
        let second = try run("rsync", ["-a", "--itemize-changes", fixture.point + "/", mirror])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.split(separator: "\n").filter { $0.hasPrefix(">f") }.isEmpty,
            "the second rsync copies nothing: \(second.stdout)")
        for file in fixture.files {
            #expect(FileManager.default.contentsEqual(atPath: mirror + file, andPath: fixture.card + "/" + file))
        }

        let probe = ["-v", "error", "-show_entries", "format=duration,size:stream=codec_name,width,height", "-of", "json"]
        let through = try run("ffprobe", probe + [fixture.point + "/DCIM/100TEST/CLIP0001.MP4"])
        let direct = try run("ffprobe", probe + [fixture.card + "/DCIM/100TEST/CLIP0001.MP4"])
        #expect(through.status == 0 && !through.stdout.isEmpty, "\(through.stderr)")
        #expect(through.stdout == direct.stdout, "ffprobe reads the clip through the mount as on disk")

        // mpv plays it to the end, decoding every frame (no output device, as fast as it decodes), and says
        // what it says of the file on disk.
        let play = ["--no-config", "--vo=null", "--ao=null", "--untimed", "--term-playing-msg=DURATION=${duration}"]
        let played = try run("mpv", play + [fixture.point + "/DCIM/100TEST/CLIP0001.MP4"])
        let playedDirect = try run("mpv", play + [fixture.card + "/DCIM/100TEST/CLIP0001.MP4"])
        #expect(played.status == 0 && played.stdout.contains("(End of file)"), "\(played.stdout)\(played.stderr)")
        // The same lines, in any order: mpv's audio and video outputs start on threads of their own and say so
        // in whichever order they come up.
        #expect(
            played.stdout.split(separator: "\n").sorted() == playedDirect.stdout.split(separator: "\n").sorted(),
            "mpv plays the clip through the mount as on disk")

        // Random reads at many offsets, compared with the file itself.
        let original = try Data(contentsOf: URL(fileURLWithPath: fixture.card + "/DCIM/101TEST/BIG.BIN"))
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: fixture.point + "/DCIM/101TEST/BIG.BIN"))
        defer { try? handle.close() }
        var random = SeededRandom(test: "mount-random-reads")
        for _ in 0..<200 {
            let offset = Int.random(in: 0..<original.count, using: &random)
            let count = Int.random(in: 1...(300 << 10), using: &random)
            try handle.seek(toOffset: UInt64(offset))
            let got = try handle.read(upToCount: count) ?? Data()
            let end = min(original.count, offset + count)
            #expect(got == original[offset..<end], "\(count) bytes at \(offset)")
        }
    }

    @Test func readsACardServedOverPTPIP() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(arguments: [fixture.card])
        defer { _ = server.stop() }
        let mount = try MountProcess(camera: "ptpip:127.0.0.1:\(server.port)", point: fixture.point)
        defer { mount.unmount() }
        try readEverything(fixture)
        #expect(mount.unmount() == 0, "\(mount.log)")
        #expect(mount.log.contains("unmounted"), "\(mount.log)")
    }

    @Test func readsAFolderServedInProcess() throws {
        let fixture = try Fixture(bigSize: 6 << 20)
        let mount = try MountProcess(camera: "sim:" + fixture.card, point: fixture.point)
        defer { mount.unmount() }
        try readEverything(fixture)
    }

    /// The demo card: its clip plays (ffprobe reads its duration), every file copies.
    @Test func readsTheDemoCard() throws {
        let fixture = try Fixture(bigSize: 0)
        let mount = try MountProcess(camera: "sim:", point: fixture.point)
        defer { mount.unmount() }
        let listing = try run("ls", ["-lR", fixture.point])
        #expect(listing.stdout.contains("DJI_0003.MP4"), "\(listing.stdout)")
        let probe = try run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
            fixture.point + "/DCIM/100MEDIA/DJI_0003.MP4"])
        #expect(probe.status == 0, "\(probe.stderr)")
        #expect(Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)).map { $0 > 0 } == true, "\(probe.stdout)")
        let cp = try run("cp", ["-r", fixture.point, fixture.base.path + "/copy"])
        #expect(cp.status == 0, "\(cp.stderr)")
        // SIGTERM unmounts cleanly, as fusermount3 -u does.
        #expect(mount.stop(with: SIGTERM) == 0, "\(mount.log)")
        #expect(mount.log.contains("unmounted"), "\(mount.log)")
    }

    /// `ls -lR` of a card of many files costs no call per name: every readdir brings the names' attributes
    /// (readdirplus), so the kernel neither looks a name up nor asks for its attributes again (a `getattr`
    /// each, through libfuse). Counted by the mount itself, whose log says under `--debug-ptp` how many
    /// calls of each kind it served; no timing.
    @Test func listingManyFilesAsksNothingPerFile() throws {
        let base = try TemporaryFolder("msh-mount-many")
        let card = base.path + "/card", point = base.path + "/mnt"
        let folders = 3, perFolder = 150
        let fm = FileManager.default
        try fm.createDirectory(atPath: point, withIntermediateDirectories: true)
        for folder in 0..<folders {
            let path = card + "/DCIM/10\(folder)TEST"
            try fm.createDirectory(atPath: path, withIntermediateDirectories: true)
            for file in 0..<perFolder {
                try Data(repeating: UInt8(file & 0xFF), count: 100 + file).write(to: URL(fileURLWithPath: path + "/IMG_\(folder)\(1000 + file).JPG"))
            }
        }
        let mount = try MountProcess(camera: "sim:" + card, point: point, extra: ["--debug-ptp", base.path + "/trace.txt"])
        defer { mount.unmount() }
        let listing = try run("ls", ["-lR", point])
        #expect(listing.status == 0, "\(listing.stderr)")
        let files = listing.stdout.split(separator: "\n").filter { $0.hasPrefix("-") && $0.hasSuffix(".JPG") }
        #expect(files.count == folders * perFolder, "\(listing.stdout)")
        // The sizes are the card's: the attributes came with the names.
        #expect(files.contains { $0.contains(" \(100 + perFolder - 1) ") && $0.hasSuffix("IMG_0\(1000 + perFolder - 1).JPG") }, "\(listing.stdout)")
        #expect(mount.unmount() == 0, "\(mount.log)")
        let counts = try #require(mount.log.split(separator: "\n").first { $0.contains("FUSE calls: ") }, "\(mount.log)")
        func count(_ kind: String) -> Int? {
            let words = counts.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
            guard let at = words.firstIndex(of: kind), at + 1 < words.count else { return nil }
            return Int(words[at + 1])
        }
        let getattr = try #require(count("getattr"), "\(counts)")
        let readdir = try #require(count("readdir"), "\(counts)")
        // The root, DCIM and its folders may be asked for once each (the mount point, the folders ls
        // opens); a name each would be \(folders * perFolder) more.
        #expect(getattr <= folders + 4, "\(counts)")
        #expect(readdir >= folders + 2, "\(counts)")
        #expect(readdir <= 4 * (folders + 2), "a few readdir requests a folder: \(counts)")
    }

    /// Writes where the camera takes them: a new file arrives whole; a folder made and removed; a delete;
    /// what a camera cannot do is refused with the errno a file system gives; a send the camera refuses is
    /// the writer's error and leaves nothing on the card.
    @Test func writesDeletesAndRefusals() throws {
        let fixture = try Fixture(bigSize: 1 << 20)
        let server = try ServeProcess(arguments: ["--writable", "--max-upload", "200000", fixture.card])
        defer { _ = server.stop() }
        let mount = try MountProcess(camera: "ptpip:127.0.0.1:\(server.port)", point: fixture.point)
        defer { mount.unmount() }
        let fm = FileManager.default
        var random = SeededRandom(test: "mount-writes")
        let small = fixture.local + "/new file.bin"
        try Data(random.bytes(150_000)).write(to: URL(fileURLWithPath: small))
        let large = fixture.local + "/LARGE.BIN"
        try Data(random.bytes(300_000)).write(to: URL(fileURLWithPath: large))

        // A write.
        let cp = try run("cp", [small, fixture.point + "/DCIM/100TEST/"])
        #expect(cp.status == 0, "\(cp.stderr) \(mount.log)")
        #expect(fm.contentsEqual(atPath: fixture.card + "/DCIM/100TEST/new file.bin", andPath: small), "the card holds the new file whole")
        #expect(fm.contentsEqual(atPath: fixture.point + "/DCIM/100TEST/new file.bin", andPath: small), "and the mount reads it back")

        // A write the camera refuses (larger than its --max-upload): the writer sees the error, the card holds nothing.
        let refused = try run("cp", [large, fixture.point + "/DCIM/100TEST/"])
        #expect(refused.status != 0, "cp reports the failed send")
        #expect(refused.stderr.contains("Input/output error"), "\(refused.stderr)")
        let left = try fm.contentsOfDirectory(atPath: fixture.card + "/DCIM/100TEST").filter { $0.contains("LARGE") }
        #expect(left.isEmpty, "nothing of the refused file is on the card: \(left)")
        #expect(!fm.fileExists(atPath: fixture.point + "/DCIM/100TEST/LARGE.BIN"))

        // Folders, as the shell's mkdir and rmdir.
        #expect(try run("mkdir", [fixture.point + "/DCIM/NEW"]).status == 0)
        #expect(fm.fileExists(atPath: fixture.card + "/DCIM/NEW"))
        let notEmpty = try run("rmdir", [fixture.point + "/DCIM/101TEST"])
        #expect(notEmpty.status != 0 && notEmpty.stderr.contains("Directory not empty"), "\(notEmpty.stderr)")
        #expect(try run("rmdir", [fixture.point + "/DCIM/NEW"]).status == 0)
        #expect(!fm.fileExists(atPath: fixture.card + "/DCIM/NEW"))

        // A delete.
        #expect(try run("rm", [fixture.point + "/DCIM/101TEST/NOTE.TXT"]).status == 0)
        #expect(!fm.fileExists(atPath: fixture.card + "/DCIM/101TEST/NOTE.TXT"))
        #expect(!fm.fileExists(atPath: fixture.point + "/DCIM/101TEST/NOTE.TXT"))

        // What a camera cannot do: never a silent success.
        let renamed = try run("mv", [fixture.point + "/DCIM/100TEST/IMG_0001.JPG", fixture.point + "/DCIM/100TEST/RENAMED.JPG"])
        #expect(renamed.status != 0 && renamed.stderr.contains("Operation not supported"), "\(renamed.stderr)")
        #expect(fm.fileExists(atPath: fixture.card + "/DCIM/100TEST/IMG_0001.JPG"))
        let chmod = try run("chmod", ["600", fixture.point + "/DCIM/100TEST/IMG_0001.JPG"])
        #expect(chmod.status != 0 && chmod.stderr.contains("Operation not permitted"), "\(chmod.stderr)")
        let overwrite = try run("cp", [small, fixture.point + "/DCIM/100TEST/IMG_0001.JPG"])
        #expect(overwrite.status != 0 && overwrite.stderr.contains("Operation not permitted"), "\(overwrite.stderr)")
        #expect(fm.contentsEqual(atPath: fixture.card + "/DCIM/100TEST/IMG_0001.JPG",
            andPath: BuildProducts.packageRoot.appendingPathComponent("Sources/VirtualCamera/DemoMedia/photo_landscape.jpg").path))
        #expect(mount.unmount() == 0, "\(mount.log)")
    }

    /// A write that fails half-way through its bytes (the camera's card fills up during SendObject): the
    /// writer sees the error at its close, and the card holds nothing of the file, not even a part.
    @Test func aWriteThatFailsMidWayLeavesNothing() throws {
        let fixture = try Fixture(bigSize: 1 << 20)
        let server = try ServeProcess(arguments: ["--writable", "--quirks", "full-mid-upload", fixture.card])
        defer { _ = server.stop() }
        let mount = try MountProcess(camera: "ptpip:127.0.0.1:\(server.port)", point: fixture.point)
        defer { mount.unmount() }
        var random = SeededRandom(test: "mount-write-mid-way")
        let file = fixture.local + "/HALF.BIN"
        try Data(random.bytes(3 << 20)).write(to: URL(fileURLWithPath: file))
        let before = try FileManager.default.contentsOfDirectory(atPath: fixture.card + "/DCIM/100TEST").sorted()

        let cp = try run("cp", [file, fixture.point + "/DCIM/100TEST/"])
        #expect(cp.status != 0, "cp reports the failed send")
        #expect(cp.stderr.contains("No space left on device"), "\(cp.stderr)")
        #expect(server.log.contains("SendObject") && server.log.contains("HALF.BIN"), "the camera took part of the bytes: \(server.log)")
        let after = try FileManager.default.contentsOfDirectory(atPath: fixture.card + "/DCIM/100TEST").sorted()
        #expect(after == before, "nothing of the file is on the card, not even a hidden part")
        #expect(!FileManager.default.fileExists(atPath: fixture.point + "/DCIM/100TEST/HALF.BIN"))
        #expect(mount.unmount() == 0, "\(mount.log)")
    }

    /// A file written, fsynced (sent), then written again and closed: sent again whole; the card holds the
    /// final bytes under its one name, nothing of the first send beside them.
    @Test func aFileWrittenAgainAfterFsyncIsSentAgainWhole() throws {
        let fixture = try Fixture(bigSize: 1 << 10)
        let server = try ServeProcess(arguments: ["--writable", fixture.card])
        defer { _ = server.stop() }
        let mount = try MountProcess(camera: "ptpip:127.0.0.1:\(server.port)", point: fixture.point)
        defer { mount.unmount() }
        var random = SeededRandom(test: "mount-write-fsync-write")
        let first = random.bytes(70_000)
        let second = random.bytes(50_000)
        let descriptor = open(fixture.point + "/DCIM/100TEST/TWICE.BIN", O_WRONLY | O_CREAT | O_EXCL, 0o644)
        try #require(descriptor >= 0, "create: errno \(errno)")
        #expect(first.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == first.count)
        #expect(fsync(descriptor) == 0, "fsync sends the file: errno \(errno)")
        #expect(FileManager.default.contents(atPath: fixture.card + "/DCIM/100TEST/TWICE.BIN") == Data(first), "after fsync the card holds what was written")
        #expect(second.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == second.count)
        #expect(close(descriptor) == 0, "close sends it again: errno \(errno)")
        #expect(FileManager.default.contents(atPath: fixture.card + "/DCIM/100TEST/TWICE.BIN") == Data(first + second),
            "the card holds the final bytes, whole")
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.card + "/DCIM/100TEST").filter { $0.contains("TWICE") }
        #expect(names == ["TWICE.BIN"], "nothing else of it on the card: \(names)")
        #expect(FileManager.default.contents(atPath: fixture.point + "/DCIM/100TEST/TWICE.BIN") == Data(first + second), "and the mount reads it back")
        #expect(mount.unmount() == 0, "\(mount.log)")
    }

    /// --read-only: every change is EROFS.
    @Test func readOnlyRefusesEveryChange() throws {
        let fixture = try Fixture(bigSize: 1 << 10)
        let server = try ServeProcess(arguments: ["--writable", fixture.card])
        defer { _ = server.stop() }
        let mount = try MountProcess(camera: "ptpip:127.0.0.1:\(server.port)", point: fixture.point, extra: ["--read-only"])
        defer { mount.unmount() }
        for (tool, arguments) in [("cp", [fixture.card + "/DCIM/101TEST/NOTE.TXT", fixture.point + "/DCIM/100TEST/COPY.TXT"]),
            ("rm", [fixture.point + "/DCIM/101TEST/NOTE.TXT"]), ("mkdir", [fixture.point + "/DCIM/NEW"])]
        {
            let result = try run(tool, arguments)
            #expect(result.status != 0 && result.stderr.contains("Read-only file system"), "\(tool): \(result.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: fixture.card + "/DCIM/101TEST/NOTE.TXT"))
    }

    /// `serve` without --writable lists DeleteObject and refuses it (its StorageInfo says read-only), as a camera
    /// with a locked card does: the mount is read-only, its log says why, and every change, delete included, is
    /// the one answer EROFS.
    @Test func aWriteProtectedCardRefusesEveryChangeWithEROFS() throws {
        let fixture = try Fixture(bigSize: 1 << 10)
        let server = try ServeProcess(arguments: [fixture.card])
        defer { _ = server.stop() }
        let mount = try MountProcess(camera: "ptpip:127.0.0.1:\(server.port)", point: fixture.point)
        defer { mount.unmount() }
        #expect(mount.log.contains("read-only (the card is write-protected"), "\(mount.log)")
        let note = fixture.point + "/DCIM/101TEST/NOTE.TXT"
        for (tool, arguments) in [("cp", [fixture.card + "/DCIM/101TEST/NOTE.TXT", fixture.point + "/DCIM/100TEST/COPY.TXT"]),
            ("rm", [note]), ("mkdir", [fixture.point + "/DCIM/NEW"]), ("touch", [fixture.point + "/DCIM/100TEST/NEW.TXT"]),
            ("sh", ["-c", "echo more >> '\(note)'"]), ("rmdir", [fixture.point + "/DCIM/100TEST"])]
        {
            let result = try run(tool, arguments)
            #expect(result.status != 0 && result.stderr.contains("Read-only file system"), "\(tool): \(result.stderr)")
        }
        #expect(FileManager.default.contents(atPath: fixture.card + "/DCIM/101TEST/NOTE.TXT") == Data("a note\n".utf8))
    }

    /// Events: a file copied into the served folder appears in the mount; one removed goes.
    @Test func cameraEventsShowInTheMount() throws {
        let fixture = try Fixture(bigSize: 1 << 10)
        let server = try ServeProcess(arguments: [fixture.card])
        defer { _ = server.stop() }
        let mount = try MountProcess(camera: "ptpip:127.0.0.1:\(server.port)", point: fixture.point)
        defer { mount.unmount() }
        let fm = FileManager.default
        #expect(!fm.fileExists(atPath: fixture.point + "/DCIM/100TEST/LATER.JPG"))
        try fm.copyItem(atPath: fixture.card + "/DCIM/100TEST/IMG_0001.JPG", toPath: fixture.card + "/DCIM/100TEST/LATER.JPG")
        #expect(waitForMountToShow(fixture.point + "/DCIM/100TEST/LATER.JPG", present: true), "an added file appears")
        #expect(fm.contentsEqual(atPath: fixture.point + "/DCIM/100TEST/LATER.JPG", andPath: fixture.card + "/DCIM/100TEST/LATER.JPG"))
        try fm.removeItem(atPath: fixture.card + "/DCIM/100TEST/LATER.JPG")
        #expect(waitForMountToShow(fixture.point + "/DCIM/100TEST/LATER.JPG", present: false), "a removed file goes")
    }

    /// A card folder (`dir:`): a file copied into it appears in the mount, one removed goes.
    @Test func aCardFoldersChangesShowInTheMount() throws {
        let fixture = try Fixture(bigSize: 1 << 10)
        let mount = try MountProcess(camera: "dir:" + fixture.card, point: fixture.point)
        defer { mount.unmount() }
        let fm = FileManager.default
        try fm.copyItem(atPath: fixture.card + "/DCIM/100TEST/IMG_0001.JPG", toPath: fixture.card + "/DCIM/100TEST/LATER.JPG")
        #expect(waitForMountToShow(fixture.point + "/DCIM/100TEST/LATER.JPG", present: true), "an added file appears")
        #expect(fm.contentsEqual(atPath: fixture.point + "/DCIM/100TEST/LATER.JPG", andPath: fixture.card + "/DCIM/100TEST/LATER.JPG"))
        try fm.removeItem(atPath: fixture.card + "/DCIM/100TEST/LATER.JPG")
        #expect(waitForMountToShow(fixture.point + "/DCIM/100TEST/LATER.JPG", present: false), "a removed file goes")
    }

    /// A camera without partial reads: each file is read whole into the cache (the log says so at the
    /// start), and copies arrive byte-identical.
    @Test func aCameraWithoutPartialReadsReadsWholeFiles() throws {
        let fixture = try Fixture(bigSize: 3 << 20)
        let server = try ServeProcess(arguments: ["--quirks", "no-partial", fixture.card])
        defer { _ = server.stop() }
        let mount = try MountProcess(camera: "ptpip:127.0.0.1:\(server.port)", point: fixture.point)
        defer { mount.unmount() }
        #expect(mount.log.contains("cannot read part of a file"), "\(mount.log)")
        let copy = fixture.base.path + "/copy"
        let cp = try run("cp", ["-r", fixture.point, copy])
        #expect(cp.status == 0, "\(cp.stderr)")
        for file in fixture.files {
            #expect(FileManager.default.contentsEqual(atPath: copy + "/" + file, andPath: fixture.card + "/" + file), "\(file) byte-identical")
        }
    }

    /// `mount DIR` and `umount` at the prompt: the open camera's card while the shell goes on; the shell's
    /// exit unmounts what is left.
    @Test func mountAndUmountAtThePrompt() throws {
        let fixture = try Fixture(bigSize: 1 << 20)
        let point = fixture.point
        let commands = [
            "mount \(point)", "!cmp \(point)/DCIM/101TEST/BIG.BIN \(fixture.card)/DCIM/101TEST/BIG.BIN", "echo same", "umount",
            "!ls \(point) | wc -l", "mount -r \(point)", "mount",
        ].joined(separator: "\n")
        let result = try ProcessRunner.run(BuildProducts.mediashell, ["--camera", "sim:" + fixture.card, "-c", commands], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // sim:PATH serves the folder read-only (its StorageInfo says so), so its mount is read-only.
        #expect(lines == [
            "mounted the card on \(point) (read-only); umount ends it", "same", "unmounted \(point)", "0",
            "mounted the card on \(point) (read-only); umount ends it", "\(point) (read-only)",
        ], "\(result.stdout)")
        let mounts = try String(contentsOfFile: "/proc/mounts", encoding: .utf8)
        #expect(!mounts.contains(" \(point) "), "the shell's exit unmounted it")
    }

    /// `close` and `open` while the card is mounted from the prompt: each refused in one line that names
    /// the folder and the umount that ends it; the mount goes on serving; after `umount`, `close` closes.
    @Test func closeAndOpenAreRefusedWhileMounted() throws {
        let fixture = try Fixture(bigSize: 1 << 20)
        let point = fixture.point
        let commands = [
            "mount \(point)", "-close", "-open sim:", "!cmp \(point)/DCIM/101TEST/BIG.BIN \(fixture.card)/DCIM/101TEST/BIG.BIN",
            "echo same", "umount", "close",
        ].joined(separator: "\n")
        let result = try ProcessRunner.run(BuildProducts.mediashell, ["--camera", "sim:" + fixture.card, "-c", commands], timeout: 60)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "mounted the card on \(point) (read-only); umount ends it", "same", "unmounted \(point)", "closed sim:\(fixture.card)",
        ], "\(result.stdout) \(result.stderr)")
        let refusals = result.stderr.split(separator: "\n").filter { $0.hasSuffix("the card is mounted on \(point): 'umount \(point)' first") }
        #expect(refusals.count == 2 && refusals[0].contains("close") && refusals[1].contains("open"), "\(result.stderr)")
    }

    /// A camera killed while a file is read: the reader gets EIO within the timeout, never a hang, and
    /// the mount says the camera is gone.
    @Test func aCameraKilledMidReadIsAnIOError() throws {
        let fixture = try Fixture(bigSize: 32 << 20)
        // A slow link, so that the read is still under way when the camera dies.
        let server = try ServeProcess(arguments: ["--link", "1,4", fixture.card])
        defer { _ = server.stop() }
        let mount = try MountProcess(camera: "ptpip:127.0.0.1:\(server.port)", point: fixture.point)
        defer { mount.unmount() }
        let descriptor = open(fixture.point + "/DCIM/101TEST/BIG.BIN", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let first = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 128 << 10) }
        #expect(first == 128 << 10)
        kill(server.pid, SIGKILL)
        let started = monotonicSeconds()
        var failure: Int32 = 0
        while true {
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 { failure = errno }
            if got <= 0 { break }
        }
        let waited = monotonicSeconds() - started
        #expect(failure == EIO, "the read fails with EIO once the camera is gone (errno \(failure))")
        #expect(waited < 15, "within the transport's timeout (10 s), not a hang: \(waited) s")
        #expect(mount.waitForLog("the camera is gone"), "\(mount.log)")
        #expect(mount.waitForLog("unmount with fusermount3 -u \(fixture.point)"), "the advice names the folder: \(mount.log)")
        let listing = try run("ls", [fixture.point + "/DCIM"], timeout: 20)
        #expect(listing.status != 0 && listing.stderr.contains("Input/output error"), "\(listing.stderr)")
    }
}

/// `mediashell mount`'s command line: declared like the other programs, its mistakes one line each.
@Suite struct MountCommandLineTests {
    @Test func helpAndMistakes() throws {
        let help = try ProcessRunner.run(BuildProducts.mediashell, ["mount", "--help"], timeout: 30)
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: mediashell mount [--camera URL] [-r] [--debug-ptp FILE] [--debug-ptp-redact] [-h] DIR")
            || help.stdout.hasPrefix("usage: mediashell mount"), "\(help.stdout)")
        let missing = try ProcessRunner.run(BuildProducts.mediashell, ["mount"], timeout: 30)
        #expect(missing.status == 2, "\(missing.stderr)")
        #expect(missing.stderr.hasPrefix("mount: ") && missing.stderr.contains("(try 'mediashell mount --help')"), "\(missing.stderr)")
        let noFolder = try ProcessRunner.run(BuildProducts.mediashell, ["mount", "--camera", "sim:", "/nonexistent/mnt"], timeout: 30)
        #expect(noFolder.status == 2 && noFolder.stderr.contains("no such folder to mount on"), "\(noFolder.stderr)")
        let topHelp = try ProcessRunner.run(BuildProducts.mediashell, ["--help"], timeout: 30)
        #expect(topHelp.stdout.contains("mediashell mount"), "the shell's help names the program")
    }
}
