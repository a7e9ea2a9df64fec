import Foundation
import TestSupport
import Testing

/// Issue 41, through the `mediashell` binary: what an earlier run left (a `.part`) is continued only when it
/// is proven to be a part of the very file asked for; otherwise the download starts again and says why. Each
/// case ends byte-identical to the camera's file, over a card folder (`dir:`), the virtual camera serving a
/// folder (`sim:PATH`) and PTP/IP (`mediashell serve`); `import --delete-after` deletes the camera's file
/// only once the copy is identical. (The USB VM runs the same corpus: `scripts/test-usb-vm`.)
@Suite(.tags(.port), .notInFastRun) struct ResumeProofTests {
    static let name = "DJI_0006.MP4"
    /// Larger than one request (8 MiB), so that what a `.part` kept is not simply read again whole.
    static let size = 12_000_000
    /// One date for every card's clip: two cards' clips of one name, size and date.
    static let captured = Date(timeIntervalSince1970: 1_714_557_600)

    enum Camera: String, CaseIterable, CustomStringConvertible {
        case folder = "dir:", simulator = "sim:", ptpip = "ptpip:"
        var description: String { rawValue }
    }

    /// The world of one case: card folders, where the copies go, the ledgers' home.
    final class World {
        let root: String
        let out: String

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("msh-proof-\(UUID().uuidString)").path
            out = root + "/out"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// A card folder holding one clip of `bytes` at the clip's date.
        func card(_ label: String, _ bytes: [UInt8]) throws -> String {
            let card = root + "/" + label
            try FileManager.default.createDirectory(atPath: card + "/DCIM/100MEDIA", withIntermediateDirectories: true)
            try replaceClip(on: card, with: bytes)
            return card
        }

        /// The clip on `card` replaced by `bytes`, with the same name and date.
        func replaceClip(on card: String, with bytes: [UInt8]) throws {
            let path = card + "/DCIM/100MEDIA/" + ResumeProofTests.name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.modificationDate: ResumeProofTests.captured], ofItemAtPath: path)
        }

        var part: String { out + "/" + ResumeProofTests.name + ".part" }
        var copy: String { out + "/" + ResumeProofTests.name }
        var environment: [String: String] { ["XDG_DATA_HOME": root + "/data", "XDG_CONFIG_HOME": root + "/config"] }
    }

    /// A camera serving `card` the way `kind` reaches it; `stop` ends a server.
    struct Opened {
        let url: String
        let stop: () -> Void
    }

    static func open(_ kind: Camera, _ card: String, writable: Bool = false) throws -> Opened {
        switch kind {
        case .folder: return Opened(url: "dir:" + card, stop: {})
        case .simulator: return Opened(url: "sim:" + card, stop: {})
        case .ptpip:
            let server = try ServeProcess(arguments: (writable ? ["--writable"] : []) + [card])
            return Opened(url: "ptpip:127.0.0.1:\(server.port)", stop: { _ = server.stop() })
        }
    }

    static func bytes(_ label: String) -> [UInt8] {
        var random = SeededRandom(test: "resume proof " + label)
        return random.bytes(size)
    }

    static func size(_ path: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
    }

    /// Runs `command` (a `fetch` or an `import` of the clip) slowly from `card`, and stops it as Ctrl-C does
    /// once its `.part` holds bytes: what an interrupted run leaves.
    static func interrupt(_ command: String, from card: String, kind: Camera, world: World) throws {
        let camera = try open(kind, card)
        defer { camera.stop() }
        let script = "set limit-rate 1M; cd DCIM/100MEDIA; " + command
        let shell = try SignalTests.Running(["--camera", camera.url, "-c", script], in: world.root, environment: world.environment)
        try #require(shell.wait(watching: world.out) { size(world.part) > 0 }, "never started: \(shell.errorText)")
        kill(shell.process.processIdentifier, SIGINT)
        try #require(shell.waitForExit(), "did not stop")
        #expect(size(world.part) > 0 && size(world.part) < UInt64(Self.size), "\(shell.errorText)")
    }

    /// Runs `command` to its end from `card`; its standard output and error, and its exit status.
    static func finish(_ command: String, from card: String, kind: Camera, world: World, writable: Bool = false) throws -> ProcessResult {
        let camera = try open(kind, card, writable: writable)
        defer { camera.stop() }
        // The virtual camera serving a folder changes it only when told to (`--writable`), as `serve` does.
        let allow = writable && kind == .simulator ? ["--writable"] : []
        return try ProcessRunner.run(
            BuildProducts.mediashell, allow + ["--camera", camera.url, "-c", "cd DCIM/100MEDIA; " + command],
            environment: world.environment, timeout: 120)
    }

    /// The states an earlier run can leave, each with what the next run must say of it (nil: continue).
    enum Kept: CaseIterable {
        /// Card A's clip stopped; card B's clip of the same name, size and date asked for.
        case anotherCardsClip
        /// A `.part` longer than the clip, written by something else.
        case longerThanTheClip
        /// The clip stopped; a byte of its `.part` changed on disk since.
        case changedOnDisk
        /// The clip's first bytes, without a record (an older version, another program).
        case withoutARecord
        /// The clip stopped; the camera's clip replaced by another of the same name, size and date.
        case clipReplaced
        /// The clip stopped, nothing else: the next run continues it.
        case interrupted
    }

    /// Leaves `kept` in the world through `command`; returns the card to run again and its clip's bytes
    /// now, and what the run must say.
    static func prepare(_ kept: Kept, command: String, kind: Camera, world: World) throws -> (card: String, clip: [UInt8], says: String?) {
        let clip = bytes("clip")
        switch kept {
        case .anotherCardsClip:
            let cardA = try world.card("A", bytes("card A"))
            let cardB = try world.card("B", bytes("card B"))
            try interrupt(command, from: cardA, kind: kind, world: world)
            return (cardB, bytes("card B"), "was part of another file (its camera differs)")
        case .longerThanTheClip:
            let card = try world.card("C", clip)
            try Data(bytes("longer") + bytes("longer")).write(to: URL(fileURLWithPath: world.part))
            return (card, clip, "has no record of which file it is a part of")
        case .changedOnDisk:
            let card = try world.card("C", clip)
            try interrupt(command, from: card, kind: kind, world: world)
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: world.part))
            try handle.seek(toOffset: 1_000)
            try handle.write(contentsOf: Data([clip[1_000] ^ 0xFF]))
            try handle.close()
            return (card, clip, "changed on disk since it was written")
        case .withoutARecord:
            let card = try world.card("C", clip)
            try Data(clip.prefix(1_000_000)).write(to: URL(fileURLWithPath: world.part))
            return (card, clip, "has no record of which file it is a part of")
        case .clipReplaced:
            let card = try world.card("C", clip)
            try interrupt(command, from: card, kind: kind, world: world)
            var other = clip
            for i in 4_096..<other.count { other[i] ^= 0xA5 }  // the same header, other footage
            try world.replaceClip(on: card, with: other)
            return (card, other, "the camera's file is not the one")
        case .interrupted:
            let card = try world.card("C", clip)
            try interrupt(command, from: card, kind: kind, world: world)
            return (card, clip, nil)
        }
    }

    @Test(arguments: Camera.allCases, Kept.allCases)
    func fetchContinuesOnlyWhatIsProven(kind: Camera, kept: Kept) throws {
        let world = try World()
        let fetch = "fetch -o \(world.out) \(Self.name)"
        let (card, clip, says) = try Self.prepare(kept, command: fetch, kind: kind, world: world)
        let run = try Self.finish(fetch, from: card, kind: kind, world: world)
        #expect(run.status == 0, "\(run.stderr)")
        // A Bool: on a failure, the test framework would otherwise diff 12 MB byte by byte.
        let identical = try Data(contentsOf: URL(fileURLWithPath: world.copy)) == Data(clip)
        #expect(identical, "\(run.stdout)")
        if let says {
            #expect(run.stdout.contains("started again from 0") && run.stdout.contains(says), "\(run.stdout)")
        } else {
            #expect(run.stdout.contains("continued from"), "\(run.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: world.part) && !FileManager.default.fileExists(atPath: world.part + ".id"))
    }

    /// `import --delete-after` deletes the camera's clip only once the copy is identical: a run that
    /// continued another file's `.part` would have deleted the only good copy.
    @Test(arguments: Camera.allCases, Kept.allCases)
    func importDeletesOnlyAnIdenticalCopy(kind: Camera, kept: Kept) throws {
        let world = try World()
        let command = "import --to \(world.out) --delete-after"
        let (card, clip, says) = try Self.prepare(kept, command: "import --to \(world.out)", kind: kind, world: world)
        let run = try Self.finish(command, from: card, kind: kind, world: world, writable: true)
        #expect(run.status == 0, "\(run.stderr)")
        let identical = try Data(contentsOf: URL(fileURLWithPath: world.copy)) == Data(clip)
        #expect(identical, "\(run.stdout)")
        if let says { #expect(run.stdout.contains(says), "\(run.stdout)") }
        #expect(run.stdout.contains("1 deleted from the camera"), "\(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: card + "/DCIM/100MEDIA/" + Self.name))
        // The manifest's checksum is the camera's bytes', so `verify` would catch a copy that was not.
        let verify = try ProcessRunner.run(BuildProducts.mediashell, ["verify", world.out], environment: world.environment)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }
}
