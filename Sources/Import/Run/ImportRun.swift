import Checksums
import Failures
import Foundation
import MediaFormats
import MediaManager
import POSIX
import PTP

/// How a copy is proven before the ledger records it (and before `--delete-after` deletes the camera's).
public enum CopyVerification: String, Sendable, CaseIterable {
    /// No checksum at all: the copy is trusted once written, synced and of the right size.
    case none
    /// The checksum of the bytes as they arrived is recorded (ledger, manifest); the copy is trusted once
    /// written, synced and of the right size.
    case written
    /// As `written`, and each copy is then read back from the disk (its cached pages dropped first) and
    /// must give that checksum.
    case readBack = "read-back"
}

/// Carries out an import plan: downloads each file through its `.part` (continuing what an interrupted
/// run left), gives it the capture time as its modification time, and commits files in groups: one
/// filesystem sync, the renames, an fsync of each folder renamed in (on a thread of their own while the
/// next group downloads: `ImportCommitter`), then on the run's thread the manifests and the ledger
/// written, and only then (with `deleteAfter`) the camera's copies deleted. A file is never recorded
/// before it is on disk under its name, and never deleted from the camera before it is recorded.
public struct ImportRun {
    public struct Options: Sendable {
        public var deleteAfter = false
        /// Bytes asked for per request (smaller under a rate limit).
        public var chunkSize = 8 << 20
        /// Requests sized from the measured rate (background jobs: `ChunkSizing`); nil: `chunkSize` each.
        public var chunkSizing: ChunkSizing?
        /// Writes the checksums of the files written into a manifest at the destination's root
        /// (`ImportManifest`): `import` does, a tethered shot's fetch does not.
        public var writesManifest = false
        /// Where a copy of every file also goes (`--backup`): folders in the pattern's layout, or patterns
        /// of their own, absolute; each root must exist (a drive not mounted is not written to: see
        /// `checkBackups`).
        public var backups: [BackupTarget] = []
        /// How a copy is proven (`--verify`).
        public var verification = CopyVerification.written
        /// Called with the path of each copy once it is synced under its name, just before it is read back
        /// (`verification == .readBack`): what is at that path then is what the checksum is compared with.
        public var beforeReadBack: (@Sendable (_ path: String) -> Void)?
        /// What writes the bytes arriving from the camera into each backup's `.part` (`BackupWriter`).
        public var backupWriter = BackupWriter.disk
        /// The XMP sidecar written beside every copy of each media file (`import --meta`); nil: none.
        public var sidecar: SidecarWriting?
        /// Who writes a generation into the ASC MHL history of every destination's root (`import --mhl`),
        /// recording each proven copy with the checksum its bytes had; nil: none is written.
        public var mhl: MHLCreator?
        public init() {}
    }

    public let session: MediaSession
    public let plan: ImportPlan
    public let ledgers: CameraLedgers?
    public var options: Options

    /// How many whole files (or bytes) may wait for one sync before they are renamed into place.
    static let groupFiles = 256
    static let groupBytes: UInt64 = 1 << 30

    /// The groups whose card holds an `.XMP` of the camera's own (imported beside the file as any sidecar):
    /// they get no sidecar of ours, so that theirs keeps its name.
    let cameraWroteSidecar: Set<String>

    public init(session: MediaSession, plan: ImportPlan, ledgers: CameraLedgers?, options: Options = Options()) {
        self.session = session
        self.plan = plan
        cameraWroteSidecar = Set((plan.items.map(\.file) + plan.unplacedFiles).filter { $0.name.lowercased().hasSuffix(".xmp") }
            .map(MediaGroup.key(of:)))
        self.ledgers = ledgers
        self.options = options
    }

    /// Refuses a plan that needs more room than the destination has (`--force` skips this), or whose
    /// destination cannot be written at all (a read-only filesystem is that, not "too little room").
    /// Groups left to the run are counted at their capture times where known, else at the camera's date;
    /// when that is more than the room there is, `resolve` gives the times not known yet (a header read
    /// each, made only then), so that a `.part` in the folder of the day a photo was shot counts.
    /// Returns the bytes it found the plan needs, for `checkBackups`.
    @discardableResult
    public static func checkFreeSpace(
        _ plan: ImportPlan, resolve: ((PendingGroup) -> ResolvedCaptureTime?)? = nil
    ) throws -> UInt64 {
        var needed = plan.bytesToFetch
        if needed > 0, let problem = LocalDisk.writeProblem(near: plan.root) { throw ImportError.local(problem) }
        guard needed > 0, let free = LocalDisk.freeBytes(near: plan.root) else { return needed }
        if needed > free, let resolve, !plan.unplaced.isEmpty {
            needed = plan.bytesToFetch { $0.known ?? resolve($0) }
        }
        if needed > free { throw ImportError.notEnoughSpace(needed: needed, available: free, folder: plan.root) }
        return needed
    }

    /// Refuses backup destinations that are not there, or that have too little room or cannot be written
    /// (as `checkFreeSpace` does for the pattern's root); `--force` goes on without them.
    /// `needed`: what `checkFreeSpace` found (placing every file of the plan again costs a lookup of each
    /// name on the disk); nil: worked out here.
    public static func checkBackups(_ plan: ImportPlan, roots: [String], needed known: UInt64? = nil) throws {
        let needed = known ?? plan.bytesToFetch
        for root in roots {
            guard LocalDisk.isDirectory(root) else { throw ImportError.backupMissing(root: root) }
            guard needed > 0 else { continue }
            if let problem = LocalDisk.writeProblem(near: root) { throw ImportError.local(problem) }
            if let free = LocalDisk.freeBytes(near: root), needed > free {
                throw ImportError.notEnoughSpace(needed: needed, available: free, folder: root)
            }
        }
    }

    /// Runs the plan. `progress` is called after every chunk; `event` once per file, in order, when its
    /// outcome is final; `stopAfter` is asked after a failed download whether to stop the batch (a camera
    /// that went away). Throws for ledger failures (nothing is deleted then), and, before anything is
    /// fetched, for an ASC MHL history that cannot be extended (`MHLError`).
    public func run(
        cancellation: Cancellation? = nil, progress: ((BatchProgress) -> Void)? = nil,
        event: ((BatchEvent) -> Void)? = nil, stopAfter: ((Error) -> Bool)? = nil
    ) throws -> BatchSummary {
        let started = monotonicSeconds()
        var summary = BatchSummary()
        summary.shift = plan.placer.options.shift
        let work = plan.toFetch
        let later = plan.unplacedFiles
        let filesTotal = work.count + later.count
        let totalBytes = (work.map(\.file) + later).reduce(UInt64(0)) { $0 + $1.size }
        var bytesBefore: UInt64 = 0  // whole bytes of the files finished so far (and .part bytes kept)
        var filesDone = 0
        var fresh: UInt64 = 0  // bytes moved in this run

        // The files' first bytes (each whole when it fits one request) read a few files ahead, so that the
        // link is busy while this thread writes, hashes and syncs.
        let readAhead = FirstBytesReadAhead(
            files: readAheadFiles(), camera: session.camera, chunkSize: options.chunkSize,
            sizing: options.chunkSizing, maxBytes: min(16 << 20, 2 * options.chunkSize),
            cancellation: cancellation ?? .never)
        defer { readAhead.finish() }

        // The backup destinations (`--backup`): each file is written to every one as its bytes arrive.
        let backups = options.backups.map { BackupDestination($0, writer: options.backupWriter) }
        // Each destination's thread ends with the run, whatever way it ends (what it was given is written).
        defer { for backup in backups { backup.queue.close() } }
        // One not there at the start (a `--force`d run) stops at once: its files are noted as missing there.
        for backup in backups where !LocalDisk.isDirectory(backup.root) {
            backup.stop(SystemError(.open, path: backup.root, errno: ENOENT, detail: "not there at the start"))
        }
        /// Every destination's root, the pattern's first.
        let roots = [plan.root] + options.backups.map(\.root)
        var manifests = options.writesManifest ? roots.map { ImportManifest(root: $0) } : []
        var manifestLinesWritten = manifests.map { _ in 0 }
        /// The manifests written at least once (a backup's can fail from the first group on: none then).
        var manifestsWritten = Set<Int>()
        /// The ASC MHL generation this run adds in each destination's root (`options.mhl`), in `roots`' order.
        var histories: [MHLNewGeneration] = []
        if let creator = options.mhl {
            for root in roots {
                histories.append(try MHLNewGeneration(root: root, creator: creator, process: .transfer))
            }
        }
        /// A copy proven in `root`, listed in its manifest and its history.
        func list(_ path: String, in root: String, _ hash: Checksum) {
            if let i = manifests.firstIndex(where: { $0.root == root }) { manifests[i].add(path, hash) }
            if let i = histories.firstIndex(where: { $0.root == root }) { histories[i].add(path, hash) }
        }
        var pending: [PendingFile] = []
        var pendingBytes: UInt64 = 0
        var toRecord: [(MediaFile, LedgerEntry)] = []
        var recordedLater: [ImportItem] = []
        /// Imported before, and now in every destination thanks to copies made here (deleted with the group).
        var completedLater: [ImportItem] = []
        /// The first copy's folders made (or found there) in this run.
        var foldersMade = Set<String>()

        // Each group's syncs and renames, on a thread of their own while the next group downloads.
        let committer = ImportCommitter(
            ImportCommitter.Setup(
                root: plan.root, verification: options.verification, beforeReadBack: options.beforeReadBack))
        defer { committer.close() }

        /// A group is whole: the one handed off before is settled, and this one handed off.
        func handOff() throws {
            try settle(committer.take())
            guard !pending.isEmpty else { return }
            committer.start(pending, backups: backups)
            pending = []
            pendingBytes = 0
        }

        /// Everything so far committed, recorded and acted on, now (the run's end, a failure, Ctrl-C).
        func flush() throws {
            try handOff()
            try settle(committer.take())
        }

        /// What a group's commit did, told (events), written down (manifests, then the ledger) and acted on
        /// (`deleteAfter`), with the files recorded since the group before (skipped, completed).
        func settle(_ outcome: GroupOutcome?) throws {
            for problem in outcome?.problems ?? [] {
                switch problem {
                case .failed(let item, let error):
                    summary.failed += 1
                    event?(.failed(item, error))
                case .copyFailed(let item, let destination, let error):
                    event?(.copyFailed(item, destination: destination, error))
                }
            }
            for (item, hash) in outcome?.done ?? [] { toRecord.append((item.file, entry(for: item, hash: hash))) }
            let committed = outcome?.files ?? []
            var complete: [ImportItem] = []
            for file in committed {
                let (item, hash, copies) = (file.item, file.hash, file.copies)
                if let hash {
                    for copy in copies { list(copy.path, in: copy.root, hash) }
                }
                let missing = roots.filter { root in !copies.contains { $0.root == root } }
                var entry = entry(for: item, hash: hash)
                if !backups.isEmpty {
                    entry.path = copies[0].path
                    entry.copies = copies.map(\.path)
                    entry.missing = missing.isEmpty ? nil : missing
                }
                toRecord.append((item.file, entry))
                if missing.isEmpty {
                    complete.append(item)
                } else {
                    summary.missingCopies.append(item.file.name)
                }
            }
            // The manifests before the ledger: a file the ledger records is in the manifest of each copy.
            // A backup whose manifest cannot be written (its disk filled up with the last copies, or went)
            // stops there: its copies of this group are recorded as missing in it, and stay on the camera.
            var unlisted: [String] = []
            for index in manifests.indices where manifests[index].count != manifestLinesWritten[index] {
                do {
                    try manifests[index].write(durable: false)
                    manifestsWritten.insert(index)
                } catch ImportError.local(let error) where index > 0 {
                    backups[index - 1].stop(error)
                    unlisted.append(manifests[index].root)
                }
                manifestLinesWritten[index] = manifests[index].count
            }
            // The histories likewise (as they grow: each write is of the whole generation), a backup's that
            // cannot be written stopping it; `finish` writes the rest at the end.
            for index in histories.indices where histories[index].isDueForWrite {
                do {
                    try histories[index].write()
                } catch let error as ImportError where index > 0 {
                    guard case .local(let cause) = error else { throw error }
                    backups[index - 1].stop(cause)
                    if !unlisted.contains(histories[index].root) { unlisted.append(histories[index].root) }
                }
            }
            if !unlisted.isEmpty {
                var nowMissing = Set<String>()
                for index in toRecord.indices {
                    var entry = toRecord[index].1
                    let gone = unlisted.filter { root in entry.copies?.contains { CopyVerifier.isUnder($0, root) } == true }
                    guard !gone.isEmpty else { continue }
                    entry.copies = entry.copies?.filter { path in !gone.contains { CopyVerifier.isUnder(path, $0) } }
                    entry.missing = Array(Set((entry.missing ?? []) + gone)).sorted()
                    toRecord[index].1 = entry
                    nowMissing.insert(entry.name + "\u{0}" + entry.folder)
                }
                let stillWhole = { (item: ImportItem) in !nowMissing.contains(item.file.name + "\u{0}" + item.file.folder) }
                for item in (complete + completedLater).filter({ !stillWhole($0) }) { summary.missingCopies.append(item.file.name) }
                complete = complete.filter(stillWhole)
                completedLater = completedLater.filter(stillWhole)
            }
            if let ledgers, !toRecord.isEmpty {
                let seq = toRecord.compactMap { $0.1.sequence }.max() ?? 0
                try ledgers.record(toRecord, sequence: seq)
            }
            toRecord = []
            if let sidecar = options.sidecar {
                for file in committed where file.item.role == .media && !cameraWroteSidecar.contains(MediaGroup.key(of: file.item.file)) {
                    do {
                        let written = try sidecar.write(for: file.item, copies: file.copies.map(\.path), cameraModel: plan.placer.options.cameraModel)
                        // Ours, in the histories beside the copies (their bytes are what was written).
                        for (path, checksum) in written {
                            for index in histories.indices where histories[index].holds(path) {
                                histories[index].add(path, checksum)
                            }
                        }
                    } catch { event?(.noSidecar(file.item, error)) }
                }
            }
            for file in committed where file.copies.first?.root == plan.root {
                summary.fetched += 1
                if file.item.renamed { summary.renamed += 1 }
                event?(.fetched(file.item, bytes: file.bytes, resumedFrom: file.resumedFrom, restarted: file.restarted))
            }
            for item in recordedLater { event?(.skipped(item)) }
            let deletable = complete + recordedLater + completedLater
            recordedLater = []
            completedLater = []
            if options.deleteAfter {
                for item in deletable {
                    do {
                        try session.delete(item.file)
                        summary.deleted += 1
                        event?(.deleted(item))
                    } catch {
                        event?(.notDeleted(item, error))
                    }
                }
            }
        }

        /// Files that need no download: imported before (left alone), the same file already there, or one
        /// another card's import brought home (both recorded with the next group, and deleted then with
        /// `deleteAfter`).
        func skip(_ item: ImportItem) {
            summary.skipped += 1
            // Another card's entry, for this camera's ledger: the copy there is this file (`ImportedElsewhere`).
            var elsewhere: LedgerEntry?
            if case .imported(let entry) = item.action {
                guard item.importedFrom != nil else {
                    if let missing = entry.missing, missing.contains(where: roots.contains), cancellation?.isCancelled != true {
                        complete(item, entry)
                    } else {
                        event?(.skipped(item))
                    }
                    return
                }
                // Its copy is under this import's root; a backup of this import that holds none gets one
                // from that proven copy (`complete`), as a file imported before does.
                var found = entry
                let uncovered = roots.filter { root in !entry.allCopies.contains { CopyVerifier.isUnder($0, root) } }
                found.missing = uncovered.isEmpty ? nil : uncovered
                elsewhere = found
            }
            if options.deleteAfter {
                // The camera's file is deleted only when the one found there is proven to be it: its bytes
                // and the camera's give one checksum (a file of the same name, size and date is not enough;
                // nor, for another card's copy, the same first bytes).
                let path = elsewhere?.path ?? item.destination
                do {
                    let camera = try session.checksum(of: item.file, chunkSize: options.chunkSize, cancellation: cancellation)
                    let local = Self.algorithm.makeHasher()
                    try ImportError.onDisk { _ = try LocalDisk.readFromDisk(path) { local.update($0) } }
                    guard local.checksum() == camera else {
                        throw ImportError.notTheCamerasFile(
                            path: path, expected: camera.description, found: local.checksum().description)
                    }
                    var entry = elsewhere ?? entry(for: item, hash: camera)
                    entry.xxh128 = camera.hex
                    entry.sha256 = nil
                    if entry.missing != nil {
                        complete(item, entry, recordingAnyway: true)
                    } else {
                        toRecord.append((item.file, entry))
                        recordedLater.append(item)
                    }
                } catch {
                    summary.skipped -= 1
                    summary.failed += 1
                    event?(.failed(item, error))
                }
            } else if let found = elsewhere, found.missing != nil {
                complete(item, found, recordingAnyway: true)
            } else {
                toRecord.append((item.file, elsewhere ?? entry(for: item, hash: nil)))
                recordedLater.append(item)
            }
        }

        /// A file imported before that is missing in destinations of this import (full, pulled, a copy that
        /// read back wrong): a copy is made there from a proven local one, checked as it is read, never
        /// from the camera; the ledger then records it, and `deleteAfter` deletes the file once it is in
        /// every destination. `recordingAnyway`: recorded even when no copy could be made (another card's
        /// entry, new to this camera's ledger), though not deleted then.
        func complete(_ item: ImportItem, _ old: LedgerEntry, recordingAnyway: Bool = false) {
            var entry = old
            var copies = old.allCopies
            var missing = old.missing ?? []
            guard let expected = old.checksum else {
                event?(.skipped(item))
                return
            }
            for root in missing where roots.contains(root) {
                let backup = backups.first { $0.root == root }
                if let backup, !backup.stillThere() { continue }
                guard let source = copies.first(where: { LocalDisk.regularFileSize($0) == old.size }) else { break }
                let sourceRoot = roots.filter { CopyVerifier.isUnder(source, $0) }.max { $0.count < $1.count }
                let relative = sourceRoot.map { BackupDestination.relative(source, to: $0) } ?? (source as NSString).lastPathComponent
                // A backup with a pattern of its own names the copy from the values the file had when placed.
                var target = root + "/" + relative
                if let pattern = backup?.target.pattern {
                    target = pattern.path(
                        for: plan.placer.patternValues(for: item.file, time: old.takenTime, sequence: old.sequence ?? 0))
                }
                do {
                    let made = try LocalCopy.make(from: source, to: target, expected: expected)
                    if options.verification == .readBack {
                        options.beforeReadBack?(made)
                        try Self.readBack(made, expecting: expected)
                    }
                    copies.append(made)
                    missing.removeAll { $0 == root }
                    list(made, in: root, expected)
                    summary.completedCopies += 1
                    event?(.completed(item, destination: root, path: made))
                } catch {
                    event?(.copyFailed(item, destination: root, error))
                }
            }
            guard copies != old.allCopies || recordingAnyway else { return }
            if recordingAnyway && copies == old.allCopies { event?(.skipped(item)) }
            entry.copies = copies
            entry.missing = missing.isEmpty ? nil : missing
            toRecord.append((item.file, entry))
            if missing.isEmpty { completedLater.append(item) } else { summary.missingCopies.append(item.file.name) }
        }

        /// Downloads one file into its `.part` (starting from `firstBytes` where they were read already) and
        /// queues it for the group's commit; false when the batch must stop (Ctrl-C, or `stopAfter`).
        func fetch(_ item: ImportItem, firstBytes: [UInt8]) throws -> Bool {
            var firstBytes = firstBytes
            if firstBytes.isEmpty, case .success(let first) = readAhead.take(item.file) { firstBytes = first.bytes }
            let folder = (item.destination as NSString).deletingLastPathComponent
            var replacing = false
            if case .fetch(_, let overwrite) = item.action { replacing = overwrite }
            var job = session.downloadJob(
                item.file, to: item.destination, replacing: replacing, chunkSize: options.chunkSize,
                sizing: options.chunkSizing, firstBytes: firstBytes)
            // Its capture time becomes its modification time through the open `.part`.
            let time = item.captureTime?.instant(assuming: plan.placer.options.timeZone).timeIntervalSince1970
            job.options.modificationTime = time
            let done = bytesBefore
            let before = fresh
            // Its copy in each backup destination still going.
            let backupParts = backups.filter { $0.stillThere() }.map {
                BackupPart(
                    destination: $0, path: $0.path(for: item.destination, values: item.patternValues, primaryRoot: plan.root))
            }
            /// The bytes this run wrote into its `.part` so far (what stays there if it stops).
            var reached: UInt64 = 0
            let result: Result<(CompletedPart, Checksum?, [BackupPart]), Error> = Result {
                // Each folder once a run (a lookup less for every file after the first in it).
                if !foldersMade.contains(folder) {
                    try ImportError.onDisk { try LocalDisk.makeDirectory(folder) }
                    foldersMade.insert(folder)
                }
                // Where the download goes on from: what the `.part` kept, as far as it is proven to be this
                // file's (`PartProof`), or the first bytes in hand when they reach further.
                var resumeAt: UInt64 = 0
                reached = 0
                // Each backup's `.part` is opened, written and closed on its destination's thread, in step.
                let copies = backupParts
                let transferred = try job.transfer(
                    read: { offset, count, sink in
                        try session.camera.read(
                            item.file, offset: offset, count: count,
                            into: copies.isEmpty ? sink : TeeSink(sink, backups: copies, offset: offset))
                    },
                    cancellation: cancellation,
                    progress: { p in
                        reached = p.bytesDone - min(resumeAt, p.bytesDone)
                        guard let progress else { return }
                        let elapsed = monotonicSeconds() - started
                        let moved = before + (p.bytesDone - min(p.bytesDone, resumeAt))
                        var batch = BatchProgress(
                            filesDone: filesDone, filesTotal: filesTotal, bytesDone: done + p.bytesDone,
                            bytesTotal: totalBytes, bytesPerSecond: elapsed > 0 ? Double(moved) / elapsed : 0,
                            elapsed: elapsed, current: item.file.name)
                        batch.bytesMoved = moved
                        progress(batch)
                    },
                    syncToDisk: false,
                    willWrite: { from, fromFirstBytes in
                        resumeAt = from
                        for copy in copies {
                            copy.prepare(resumeAt: from, primaryPart: job.partPath, firstBytes: fromFirstBytes ? firstBytes : [])
                        }
                    })
                guard case .complete(let part) = transferred else {
                    throw ImportError.appeared(path: item.destination)
                }
                for copy in copies { copy.finish(size: item.file.size, modificationTime: time) }
                // The checksum of the bytes as they came (kept ones proven); none with `--verify none`.
                return (part, options.verification == .none ? nil : part.checksum, copies)
            }
            switch result {
            case .success(let (part, hash, copies)):
                fresh += part.size - part.resumedFrom
                summary.bytes += part.size - part.resumedFrom
                pending.append(PendingFile(item: item, part: part, hash: hash, backups: copies))
                pendingBytes += part.size
                bytesBefore += item.file.size
                filesDone += 1
                if pending.count >= Self.groupFiles || pendingBytes >= Self.groupBytes { try handOff() }
                return true
            case .failure(let error as DownloadError) where error.cancelledAt != nil:
                summary.bytes += reached
                summary.bytesKept += reached
                try flush()
                summary.interrupted = true
                event?(.stopped(item, at: error.cancelledAt ?? 0))
                return false
            case .failure(let error):
                summary.bytes += reached
                summary.bytesKept += reached
                return try failed(item, error)
            }
        }

        /// A file that could not be brought; false when the batch must stop (`stopAfter`).
        func failed(_ item: ImportItem, _ error: Error) throws -> Bool {
            summary.failed += 1
            bytesBefore += item.file.size
            filesDone += 1
            try flush()
            event?(.failed(item, error))
            return stopAfter?(error) != true
        }

        for item in plan.items {
            if !item.datesSetAside.isEmpty { summary.datesSetAside += 1 }
            if case .fetch = item.action { continue }
            skip(item)
        }
        if !toRecord.isEmpty { try flush() }

        // Ctrl-C between two files: the batch ends there, nothing of the next begun.
        var going = true
        func stillGoing() -> Bool {
            if going, cancellation?.isCancelled == true {
                summary.interrupted = true
                going = false
            }
            return going
        }
        for item in work where stillGoing() {
            going = try fetch(item, firstBytes: [])
        }
        // The groups placed as the run reaches them: the main file's first bytes read once, for its date
        // and for the file.
        var placer = plan.placer
        for group in plan.unplaced where stillGoing() {
            let (date, first) = dateAndFirstBytes(of: group, readAhead: readAhead)
            // Ctrl-C while the first bytes came: nothing of this group is begun.
            guard stillGoing() else { break }
            for (index, item) in placer.place(group, time: date).enumerated() where going {
                if !item.datesSetAside.isEmpty { summary.datesSetAside += 1 }
                var firstBytes: [UInt8] = []
                if index == 0, let first {
                    switch first {
                    case .success(let bytes): firstBytes = bytes
                    case .failure(let error) where error.isCancellation:
                        summary.interrupted = true
                        going = false
                        continue
                    case .failure(let error):
                        // Its date is not known: it fails (and the next import brings it), rather than go
                        // under the listed date, or ask again a camera that just failed. Nothing of it was
                        // written; the error is a download's stopped at byte 0, so that the caller's
                        // `stopAfter` sees a camera gone as it does in any download. The rest of its group
                        // comes as usual: a RAW is never held back by its JPEG.
                        if case .fetch = item.action {
                            let stopped = DownloadError.interrupted(
                                remoteName: item.file.name, path: item.destination, at: 0, size: item.file.size,
                                cause: error)
                            going = try failed(item, stopped)
                        } else {
                            skip(item)
                        }
                        continue
                    }
                }
                guard case .fetch = item.action else {
                    skip(item)
                    if item.action == .alreadyThere {
                        bytesBefore += item.file.size
                        filesDone += 1
                    }
                    continue
                }
                guard stillGoing() else { break }
                going = try fetch(item, firstBytes: firstBytes)
            }
        }
        try flush()
        // The first copy's manifest must reach its disk; a backup's that cannot stops that backup (said in
        // the summary), its copies already recorded.
        for (index, manifest) in manifests.enumerated() where manifestsWritten.contains(index) {
            do {
                try manifest.sync()
            } catch ImportError.local(let error) where index > 0 {
                backups[index - 1].stop(error)
            }
        }
        // Each history with its folders' hashes, flushed; a backup's that cannot be stops that backup.
        for index in histories.indices {
            do {
                try histories[index].finish()
            } catch let error as ImportError where index > 0 {
                guard case .local(let cause) = error else { throw error }
                backups[index - 1].stop(cause)
            }
        }
        summary.seconds = monotonicSeconds() - started
        summary.manifests = manifests.indices.filter(manifestsWritten.contains).map { manifests[$0].path }
        summary.mhlGenerations = histories.filter { !$0.isEmpty }.map(\.path)
        summary.stoppedDestinations = backups.compactMap { backup in backup.stopped.map { StoppedDestination(root: backup.root, why: $0) } }
        return summary
    }

    /// A group's date, and the first bytes of its main file when they were read for it (or why they could
    /// not be): a new JPEG's come in the request its download would begin with; the header of one imported
    /// before (a new sidecar beside it) is read as the plan reads it.
    func dateAndFirstBytes(
        of group: PendingGroup, readAhead: FirstBytesReadAhead
    ) -> (ResolvedCaptureTime?, Result<[UInt8], Error>?) {
        guard group.needsDate else { return (nil, nil) }
        let main = group.main
        guard datedByFirstBytes(group) else { return (session.resolveCaptureTime(main), nil) }
        let read = readAhead.take(main) ?? Result {
            try FirstBytes.read(main, camera: session.camera, chunkSize: options.chunkSize, sizing: options.chunkSizing)
        }
        switch read {
        case .success(let first):
            return (session.resolveCaptureTime(main, prefix: first.bytes), .success(first.bytes))
        case .failure(let error):
            return (session.shownCaptureTime(main).time.map { ResolvedCaptureTime(time: $0) }, .failure(error))
        }
    }

    /// A new main file whose time is not known yet and that its first bytes date: it comes from the first
    /// request of its download.
    func datedByFirstBytes(_ group: PendingGroup) -> Bool {
        group.needsDate && group.members.first?.isNew == true && group.known == nil
            && Self.datedByFirstBytes(group.main, firstRequest: options.chunkSize)
    }

    /// True for a file whose time the first request of its download gives: a JPEG (its EXIF is at the
    /// start), or a video, a telemetry file that fits that request whole.
    public static func datedByFirstBytes(_ file: MediaFile, firstRequest: Int) -> Bool {
        file.kind == .jpeg || CaptureTimes.readsContent(file) && file.size <= UInt64(max(firstRequest, 1))
    }

    /// The files whose first bytes the run takes, in its order: each file to fetch that fits one request,
    /// and the main file of each group dated by its first bytes.
    func readAheadFiles() -> [MediaFile] {
        let fits = { (file: MediaFile) in file.size > 0 && file.size <= UInt64(options.chunkSize) }
        var files = plan.toFetch.map(\.file).filter(fits)
        for group in plan.unplaced {
            for (index, member) in group.members.enumerated() where member.isNew {
                if fits(member.file) || index == 0 && datedByFirstBytes(group) { files.append(member.file) }
            }
        }
        return files
    }

    func entry(for item: ImportItem, hash: Checksum?) -> LedgerEntry {
        LedgerEntry(
            name: item.file.name, folder: item.file.folder, size: item.file.size, captured: item.file.captureDate,
            checksum: hash, path: Self.absolute(item.destination), imported: Date(), sequence: item.sequence,
            taken: item.captureTime, shift: plan.placer.options.shift)
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The checksum computed as the bytes arrive: XXH3-128 (libxxhash), ten times cheaper than libcrypto's
    /// SHA-256 and sixty times cheaper than the SHA-256 of our own the ledger had before (docs/manual.md,
    /// Importing).
    static let algorithm = Checksum.Algorithm.xxh128

    /// Reads a synced copy back from the disk (not the page cache) and compares its checksum with the one
    /// its bytes had as they arrived; on a mismatch the copy is renamed `NAME.verify-failed` (`-2`, `-3`...
    /// beside an older one, which is kept) and `copyReadBackWrong` thrown.
    static func readBack(_ path: String, expecting expected: Checksum) throws {
        let hash = expected.algorithm.makeHasher()
        _ = try ImportError.onDisk { try LocalDisk.readFromDisk(path) { hash.update($0) } }
        let found = hash.hexDigest()
        guard found != expected.hex else { return }
        let aside = try LocalCopy.setAside(path)
        throw ImportError.copyReadBackWrong(
            path: path, keptAs: aside, expected: expected.description, found: Checksum(expected.algorithm, hex: found).description)
    }

    /// One folder per filesystem among `folders`, so that a group is synced once per disk.
    static func distinctFilesystems(_ folders: [String]) -> [String] {
        var seen = Set<UInt64>()
        var result: [String] = []
        for folder in Set(folders).sorted() {
            let device = LocalDisk.device(of: folder) ?? UInt64.max
            if seen.insert(device).inserted { result.append(folder) }
        }
        return result
    }
}
