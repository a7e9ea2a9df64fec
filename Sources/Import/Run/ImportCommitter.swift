import Checksums
import Foundation
import MediaManager
import POSIX

/// One file of an import whose bytes are all in its `.part`s (the first copy's and each backup's), waiting
/// for its group's commit.
struct PendingFile: Sendable {
    var item: ImportItem
    var part: CompletedPart
    /// The checksum of its bytes as they arrived (nil with `--verify none`).
    var hash: Checksum?
    var backups: [BackupPart]
}

/// One copy of a file under its name: in which destination, and where.
struct PlacedCopy: Sendable {
    var root: String
    var path: String
}

/// What the commit of one group did, for the run's thread to tell, record and act on, in that order.
struct GroupOutcome: Sendable {
    /// A file with at least one copy under its name (and proven, with read-back).
    struct File: Sendable {
        var item: ImportItem
        var bytes: UInt64
        var resumedFrom: UInt64
        /// Why a `.part` an earlier run kept was not continued, with its bytes.
        var restarted: (why: PartRestart, kept: UInt64)? = nil
        var hash: Checksum?
        /// The first copy's first when it has one, then each backup's.
        var copies: [PlacedCopy]
    }

    /// What went wrong on the way, in the order it happened.
    enum Problem: Sendable {
        /// The first copy could not be renamed, or read back wrong: the file counts as failed.
        case failed(ImportItem, any Error)
        /// A backup's copy could not be renamed, or read back wrong.
        case copyFailed(ImportItem, destination: String, any Error)
    }

    var files: [File] = []
    /// Files the rename found done already: recorded as they are.
    var done: [(item: ImportItem, hash: Checksum?)] = []
    var problems: [Problem] = []
}

/// Commits an import's groups on a thread of its own, one group at a time, while the run's thread goes on
/// downloading the next: each backup's writes of the group are waited for, then one sync of each
/// filesystem, the renames, an fsync of each folder renamed in, and the read-back where asked. The run takes the outcome
/// (`take`) before it hands off the next group, and only then writes manifests and the ledger and deletes
/// from the camera, on its own thread, in order: a file is still never recorded before it is on disk under
/// its name. (Before, the run's thread waited for each group's syncs and made its renames itself: a tenth
/// to a fifth of an import of photos, measured in docs/benchmarks "Verified copies".)
final class ImportCommitter {
    /// What every group's commit needs to know of the run.
    struct Setup: Sendable {
        /// The first copy's root (the pattern's).
        var root: String
        var verification: CopyVerification
        var beforeReadBack: (@Sendable (_ path: String) -> Void)?
    }

    private let setup: Setup
    private let worker = SerialWorker(name: "import-commit", maxQueuedCost: 1)
    /// The outcome of the group handed off and not taken yet (nil inside until it is committed).
    private var inFlight: Locked<GroupOutcome?>?

    init(_ setup: Setup) {
        self.setup = setup
    }

    /// Hands off `files` (the group before must have been taken). Each backup's thread is given a mark after
    /// the group's writes; the commit waits for every mark, then for nothing else the run queues later.
    func start(_ files: [PendingFile], backups: [BackupDestination]) {
        precondition(inFlight == nil, "a group is handed off only once the one before was taken")
        let marks = LockedCondition(0)
        for backup in backups { backup.queue.submit { marks.change { $0 += 1 } } }
        let box = Locked<GroupOutcome?>(nil)
        let (setup, count) = (setup, backups.count)
        worker.submit {
            _ = marks.wait(until: nil) { $0 == count }
            let outcome = Self.commit(files, setup)
            box.withLock { $0 = outcome }
        }
        inFlight = box
    }

    /// The outcome of the group handed off, once it is committed (waiting for that); nil when none is.
    func take() -> GroupOutcome? {
        guard let box = inFlight else { return nil }
        worker.drain()
        inFlight = nil
        return box.withLock { $0 }
    }

    /// Commits what was handed off and ends the thread.
    func close() { worker.close() }

    /// One sync of each filesystem the group was written to, each file's copies renamed into place (the
    /// first copy's, then each backup's), the renames flushed, then each copy read back where asked.
    static func commit(_ files: [PendingFile], _ setup: Setup) -> GroupOutcome {
        var outcome = GroupOutcome()
        // A backup's copy counts only when it came out whole.
        let files = files.map { file in
            var file = file
            file.backups = file.backups.filter(\.isWhole)
            return file
        }
        let folders = files.flatMap { file in
            [LocalDisk.parentFolder(of: file.part.destination)] + file.backups.map { LocalDisk.parentFolder(of: $0.path) }
        }
        for folder in ImportRun.distinctFilesystems(folders) { LocalDisk.syncFilesystem(containing: folder) }
        for file in files {
            var copies: [PlacedCopy] = []
            var bytes: UInt64 = 0
            var from: UInt64 = 0
            do {
                let placed = try file.part.commit()
                if case .downloaded(_, let b, let f) = placed {
                    (bytes, from) = (b, f)
                    copies.append(PlacedCopy(root: setup.root, path: file.item.destination))
                } else {
                    outcome.done.append((file.item, file.hash))
                    continue
                }
            } catch {
                outcome.problems.append(.failed(file.item, error))
            }
            for backup in file.backups {
                do throws(SystemError) {
                    try backup.commit()
                    copies.append(PlacedCopy(root: backup.destination.root, path: backup.path))
                } catch {
                    backup.destination.stop(error)
                    outcome.problems.append(.copyFailed(file.item, destination: backup.destination.root, ImportError.local(error)))
                }
            }
            if !copies.isEmpty {
                outcome.files.append(
                    GroupOutcome.File(
                        item: file.item, bytes: bytes, resumedFrom: from,
                        restarted: file.part.restart.map { ($0, file.part.setAside) }, hash: file.hash, copies: copies))
            }
        }
        syncRenames(in: Set(outcome.files.flatMap { $0.copies.map { LocalDisk.parentFolder(of: $0.path) } }))
        if setup.verification == .readBack { readBack(&outcome, setup) }
        return outcome
    }

    /// The folders a group's copies were renamed in, flushed: each with an fsync of its own (its entries;
    /// the files' data and any folder made for them went with the group's first sync), rather than a
    /// second sync of each filesystem, which would also wait for the next group's data being written
    /// meanwhile. Past `foldersSyncedOneByOne` folders, or where a folder cannot be, its filesystem.
    static func syncRenames(in folders: Set<String>) {
        var rest = folders.count > foldersSyncedOneByOne ? Array(folders) : []
        if rest.isEmpty {
            rest = folders.sorted().filter { !LocalDisk.syncDirectory($0) }
        }
        for folder in ImportRun.distinctFilesystems(rest) { LocalDisk.syncFilesystem(containing: folder) }
    }

    /// Above this many folders in one group, a sync of each filesystem costs less than an fsync of each.
    static let foldersSyncedOneByOne = 16

    /// Each copy read back from the disk: one that does not give the checksum its bytes had as they
    /// arrived is set aside and does not count.
    private static func readBack(_ outcome: inout GroupOutcome, _ setup: Setup) {
        var problems: [GroupOutcome.Problem] = []
        for index in outcome.files.indices {
            guard let hash = outcome.files[index].hash else { continue }
            let item = outcome.files[index].item
            outcome.files[index].copies = outcome.files[index].copies.filter { copy in
                setup.beforeReadBack?(copy.path)
                do {
                    try ImportRun.readBack(copy.path, expecting: hash)
                    return true
                } catch {
                    problems.append(
                        copy.root == setup.root ? .failed(item, error) : .copyFailed(item, destination: copy.root, error))
                    return false
                }
            }
        }
        outcome.problems += problems
        outcome.files.removeAll { $0.copies.isEmpty }
    }
}
