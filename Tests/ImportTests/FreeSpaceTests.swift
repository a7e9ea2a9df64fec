import Connectors
import Foundation
import MediaManager
import POSIX
import TestSupport
import Testing
@testable import Import

/// The free-space check before a run: what the plan still has to download against what the destination
/// has free; a `.part` an earlier run left counts only for the bytes it lacks.
@Suite(.tags(.process), .notInFastRun) struct FreeSpaceTests {
    @Test func theFreeSpaceCheckRefusesWithTheNumbers() throws {
        let card = try CardOnDisk()
        let mount = card.root + "/small"
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        guard SmallDisk.mount(at: mount, bytes: 256 << 10) else {
            print("skipped: cannot mount a tmpfs here")
            return
        }
        defer { SmallDisk.unmount(mount) }
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let options = ImportOptions(pattern: try DestinationPattern(mount + "/%Y"))
        let groups = CardSelection.groups(for: CardSelection.dcimFiles(in: session.catalog), in: session.catalog)
        let plan = Importer.plan(groups, session: session, options: options, ledgers: nil)
        do {
            try ImportRun.checkFreeSpace(plan)
            Issue.record("the check let \(plan.bytesToFetch) bytes through")
        } catch let error as ImportError {
            guard case .notEnoughSpace(let needed, let available, let folder) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(needed == plan.bytesToFetch)
            #expect(available <= 256 << 10)
            #expect(folder == mount)
        }
    }

    /// After an interrupted run, the files' `.part`s hold most of their bytes: the check counts only the
    /// rest, for the files placed before the run and for those placed as it reaches them (every group from
    /// the first photo dated by its first bytes on, here a video), and the run then fits the disk.
    @Test func aPartLeftByAnEarlierRunCountsOnlyForWhatItLacks() throws {
        let card = try CardOnDisk()
        let video = patternedBytes(1 << 20, seed: 9)
        try card.add("DCIM/101MEDIA/IMG_0007.MP4", video)
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let groups = CardSelection.groups(for: CardSelection.dcimFiles(in: session.catalog), in: session.catalog)
        let total = CardSelection.dcimFiles(in: session.catalog).reduce(UInt64(0)) { $0 + $1.size }
        // A disk with room for the whole card and 128 kB more, where an earlier run left three .parts.
        let mount = card.root + "/small"
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let mounted = SmallDisk.mount(at: mount, bytes: Int((total + (128 << 10) + 4095) / 4096 * 4096))
        defer { if mounted { SmallDisk.unmount(mount) } }
        let parts = [
            ("2024/06-01/DJI_0001.MP4", try card.bytes("DCIM/100MEDIA/DJI_0001.MP4").prefix(200_000)),  // placed before the run
            ("2024/06-01/DJI_0002.JPG", try card.bytes("DCIM/100MEDIA/DJI_0002.JPG").prefix(30_000)),  // placed by the run
            ("2024/06-01/IMG_0007.MP4", video.prefix(video.count - 1_000)),  // placed by the run
        ]
        for (path, bytes) in parts {
            let url = URL(fileURLWithPath: mount + "/" + path + ".part")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        let kept = parts.reduce(UInt64(0)) { $0 + UInt64($1.1.count) }
        let options = ImportOptions(pattern: try DestinationPattern(mount + "/%Y/%m-%d"))
        let plan = Importer.plan(groups, session: session, options: options, ledgers: nil, datesFromDownload: true)
        #expect(plan.unplacedFiles.contains { $0.name == "IMG_0007.MP4" })
        #expect(plan.bytesToFetch == total - kept)
        guard mounted else {
            print("skipped the disk: cannot mount a tmpfs here")
            return
        }
        // The files counted whole would not fit: the check is what lets this run start.
        let free = try #require(LocalDisk.freeBytes(near: mount))
        #expect(total - 200_000 > free)
        try ImportRun.checkFreeSpace(plan)
        let summary = try ImportRun(session: session, plan: plan, ledgers: nil).run()
        #expect(summary.failed == 0)
        #expect(summary.fetched == plan.toFetch.count + plan.unplacedFiles.count)
        #expect(try Data(contentsOf: URL(fileURLWithPath: mount + "/2024/06-01/IMG_0007.MP4")) == Data(video))
    }
}

/// A small tmpfs for the free-space test (this runs as root in CI); false when mounting is refused.
enum SmallDisk {
    static func mount(at path: String, bytes: Int) -> Bool {
        run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", path])
    }

    static func unmount(_ path: String) { _ = run("/bin/umount", [path]) }

    static func run(_ program: String, _ arguments: [String]) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: program) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// The estimate places a `.part` by the photo's capture time (issue 27): a photo whose EXIF day differs
/// from the camera's date has its `.part` in the EXIF day's folder, where the run will look.
@Suite struct FreeSpaceByCaptureTimeTests {
    @Test func aPartInTheFolderOfTheDayThePhotoWasShotCounts() throws {
        let card = try CardOnDisk()  // IMG_0004.JPG: EXIF 2024:05:01, the camera's date 2024-06-01
        let session = try MediaSession.open(.folder(path: card.card))
        defer { session.close() }
        try session.catalog.ensureLoaded()
        let groups = CardSelection.groups(for: CardSelection.dcimFiles(in: session.catalog), in: session.catalog)
        let total = CardSelection.dcimFiles(in: session.catalog).reduce(UInt64(0)) { $0 + $1.size }
        let photo = try card.bytes("DCIM/101MEDIA/IMG_0004.JPG")
        let part = card.pictures + "/2024/05-01/IMG_0004.JPG.part"
        try FileManager.default.createDirectory(atPath: card.pictures + "/2024/05-01", withIntermediateDirectories: true)
        try Data(photo.prefix(photo.count - 100)).write(to: URL(fileURLWithPath: part))
        let options = ImportOptions(pattern: try DestinationPattern(card.pictures + "/%Y/%m-%d"))
        let plan = Importer.plan(groups, session: session, options: options, ledgers: nil, datesFromDownload: true)
        #expect(plan.unplacedFiles.contains { $0.name == "IMG_0004.JPG" })
        // At the camera's date the .part is not found; at the capture time it is, and counts for 100 bytes.
        #expect(plan.bytesToFetch == total)
        let resolved = plan.bytesToFetch { $0.known ?? session.resolveCaptureTime($0.main) }
        #expect(resolved == total - UInt64(photo.count - 100))
        // Once the session knows the time (a listing read it), the plain estimate finds the .part too.
        let again = Importer.plan(groups, session: session, options: options, ledgers: nil, datesFromDownload: true)
        #expect(again.bytesToFetch == resolved)
    }
}
