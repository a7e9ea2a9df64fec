import Failures
import Foundation
import MediaFormats
import POSIX
import PTP

/// An open camera with its cached catalog: what the shell holds while a camera is open.
/// Fetches, deletes, thumbnails and captures go through here so the catalog stays in step.
public final class MediaSession: Sendable {
    public let url: CameraURL
    public let camera: Camera
    public let catalog: MediaCatalog
    /// Thumbnail fetches, one at a time, in the order the user wants them.
    public let thumbnails: ThumbnailQueue<UInt32>
    /// Kinds and video details read from the files' own bytes where the listing says nothing.
    public let contentCheck = ContentCheck()
    /// Each file's one capture time, resolved from its header and kept for the session (`CaptureTimes`).
    public let captureTimes = CaptureTimes()
    /// The drone clips' `.SRT` telemetry read so far (`telemetry(for:)`).
    public let telemetryCache = TelemetryCache()

    public init(camera: Camera, url: CameraURL) {
        self.url = url
        self.camera = camera
        catalog = MediaCatalog(camera: camera)
        thumbnails = ThumbnailQueue<UInt32> { [weak camera, catalog] id in
            guard let camera, let file = catalog.file(id: id) else { throw PTPError.response(.invalidObjectHandle, operation: .getThumb, transaction: nil) }
            return try camera.thumbnail(file)
        }
    }

    public func close() {
        thumbnails.cancelAll()
        camera.close()
    }

    // MARK: Fetch

    public struct FetchOptions: Sendable {
        /// Replace a different file at a file's name (`--force`) instead of giving the new one a unique name.
        public var overwrite = false
        /// Kept for `fetch --new`: a file already in the destination (same name, size and capture time) is
        /// always skipped, with or without it.
        public var onlyNew = false
        /// Delete each file from the camera once it arrived whole.
        public var deleteAfter = false
        /// Start the first file from this offset (the shell's `offset`), instead of its `.part` size.
        public var startOffset: UInt64?
        public var chunkSize = 8 << 20
        /// Requests sized from the measured rate (background jobs: `ChunkSizing`); nil: `chunkSize` each.
        public var chunkSizing: ChunkSizing?
        /// How files are grouped for their sync, and the sync itself (tests set it).
        var commits = GroupCommitter.Policy()
        public init() {}
    }

    /// One file's result in a batch.
    public struct FileResult: Sendable {
        public var file: MediaFile
        public var outcome: Result<DownloadOutcome, Error>
        /// Set when `deleteAfter` was asked and the delete failed.
        public var deleteError: Error?
        /// Why the `.part` an earlier attempt had kept was not continued, and the download started again from
        /// byte 0 (`PartProof`); with the bytes it held.
        public var restarted: (why: PartRestart, kept: UInt64)? = nil
        /// True when a different file had the name and `overwrite` replaced it.
        public var replacedExisting = false
        /// The bytes this run wrote for it: the whole file less what a kept `.part` held, or, for one that
        /// stopped, what reached its `.part` (kept there for the next run).
        public var bytesWritten: UInt64 = 0
    }

    /// Downloads `files` into `folder` one after another, each through its own `.part`, placed by the clash
    /// policy (`ClashResolver`): the same file already there is skipped, a different file at the name makes
    /// the new one take a unique name (`NAME (2).JPG`), in one run or across runs; `overwrite` replaces it.
    /// Names are sanitized first. Stops at a cancellation; other failures are reported per file and the
    /// batch goes on.
    ///
    /// Whole `.part` files are renamed in groups after one filesystem sync for the group, rather than one
    /// fsync per file (which made a batch of small files several times slower): a file never takes its
    /// final name before its bytes are on disk. The syncs run beside the download (`GroupCommitter`): the
    /// next group arrives while one is written out. Results are reported in order as their group is
    /// committed; `deleteAfter` deletes a file from the camera only then.
    public func fetch(
        _ files: [MediaFile], to folder: String, options: FetchOptions = .init(), cancellation: Cancellation? = nil,
        progress: ((TransferProgress) -> Void)? = nil, each: ((FileResult) -> Void)? = nil
    ) throws -> [FileResult] {
        var clashes = ClashResolver(overwrite: options.overwrite)
        var results: [FileResult] = []
        let committer = GroupCommitter(folder: folder, policy: options.commits)
        var uncommitted = Set<Int>()
        var reported = 0

        /// Takes the committed outcomes in, deletes those files from the camera when asked, and reports
        /// every result up to the first one still waiting for its sync.
        func report(_ committed: [GroupCommitter.Committed]) {
            for (index, outcome) in committed {
                results[index].outcome = outcome
                uncommitted.remove(index)
                if options.deleteAfter, case .success(.downloaded) = outcome {
                    do { try delete(results[index].file) } catch { results[index].deleteError = error }
                }
            }
            while reported < results.count, !uncommitted.contains(reported) {
                each?(results[reported])
                reported += 1
            }
        }

        // Where each file goes, decided in the batch's order before any is read (the resolver knows the names
        // it gave; the batch's own files take their names only at their group's commit).
        let placements = files.map { file -> ClashResolver.Placement? in
            guard !file.isFolder else { return nil }
            let desired = folder + "/" + LocalFileName.sanitize(file.name)
            // The download finds an earlier .part's size from the file it opens: not looked up here.
            // A copy fetched before carries the file's capture time (read only when a file of its size is there).
            return clashes.place(
                desired, size: file.size, captured: file.captureDate,
                orCaptured: { self.resolveCaptureTime(file).time?.instant() }
            ).placement
        }
        try Self.checkFreeSpace(for: files, placements, in: folder, startOffset: options.startOffset)
        try DownloadError.onDisk { try LocalDisk.makeDirectory(folder) }
        // The files that fit one request are read a few ahead, whole, on a thread of their own: while this
        // thread writes one, the next one's request is on the link (PTP allows one transaction at a time,
        // so this is how the link and the disk work at once). Files already there are not read.
        let readAhead = FirstBytesReadAhead(
            files: Self.readAheadFiles(files, placements, chunkSize: options.chunkSizing.map { min($0.nextSize, options.chunkSize) } ?? options.chunkSize,
                resumingFirst: options.startOffset != nil),
            camera: camera, chunkSize: options.chunkSize, sizing: options.chunkSizing,
            maxBytes: min(16 << 20, 2 * options.chunkSize), cancellation: cancellation ?? .never)
        defer { readAhead.finish() }

        for (index, file) in files.enumerated() where !file.isFolder {
            // A batch cancelled between files starts no more of them (and leaves no empty .part behind).
            if index > 0, cancellation?.isCancelled == true { break }
            guard let placement = placements[index] else { continue }
            if case .alreadyThere(let path) = placement {
                results.append(FileResult(file: file, outcome: .success(.skippedExisting(path: path)), deleteError: nil))
                report(committer.take())
                continue
            }
            // Read ahead, whole: the download writes them and asks the camera for nothing more. A read that
            // failed there is made again by the download, which reports it.
            var first: [UInt8] = []
            if case .success(let read)? = readAhead.take(file) { first = read.bytes }
            var replacing = false
            if case .overwrite = placement { replacing = true }
            var job = downloadJob(
                file, to: folder + "/" + (placement.path as NSString).lastPathComponent, replacing: replacing,
                chunkSize: options.chunkSize, sizing: options.chunkSizing, firstBytes: first)
            // The capture time as the file's time, set before the group's sync makes it durable: known, else
            // read from the `.part` once it is whole.
            if let known = captureTimes.known(file) {
                job.options.modificationTime = (known.time ?? listedCaptureTime(file))?.instant().timeIntervalSince1970
            } else if CaptureTimes.readsContent(file) {
                job.options.modificationTimeFromContent = { [self] path in
                    guard let local = try? FileByteSource(path: path) else { return file.captureDate?.timeIntervalSince1970 }
                    return self.resolveCaptureTime(file, local: local).time?.instant().timeIntervalSince1970
                        ?? file.captureDate?.timeIntervalSince1970
                }
            } else {
                job.options.modificationTime = file.captureDate?.timeIntervalSince1970
            }
            if index == 0 { job.options.startOffset = options.startOffset }
            // How far this file got in this run, from its first report (where it started) to its last.
            var reached: (from: UInt64, to: UInt64)?
            let transferred = Result {
                try job.transfer(
                    read: { offset, count, sink in try self.camera.read(file, offset: offset, count: count, into: sink) },
                    cancellation: cancellation,
                    progress: { p in
                        reached = (reached?.from ?? p.bytesDone, p.bytesDone)
                        progress?(p)
                    },
                    syncToDisk: false)
            }
            let written = reached.map { $0.to - min($0.from, $0.to) } ?? 0
            switch transferred {
            case .success(.skipped(let outcome)):
                results.append(FileResult(file: file, outcome: .success(outcome), deleteError: nil))
            case .success(.complete(let part)):
                // A placeholder until its group is committed.
                var placeholder = FileResult(
                    file: file,
                    outcome: .failure(DownloadError.local(SystemError(.commit, path: part.partPath, errno: EINPROGRESS, detail: "not committed"))),
                    deleteError: nil, restarted: part.restart.map { ($0, part.setAside) }, bytesWritten: written)
                if case .overwrite = placement { placeholder.replacedExisting = true }
                results.append(placeholder)
                uncommitted.insert(results.count - 1)
                committer.add(part, tag: results.count - 1)
            case .failure(let error):
                results.append(FileResult(file: file, outcome: .failure(error), deleteError: nil, bytesWritten: written))
            }
            report(committer.take())
            if case .failure(let error) = transferred, error.isCancellation { break }
        }
        report(committer.finish())
        return results
    }

    /// Refuses a batch whose files need more room in `folder` than its filesystem has, before anything is
    /// written (a download that fills the disk leaves a `.part` that makes every next one fail too). What a
    /// kept `.part` holds counts as there; files already there need nothing.
    static func checkFreeSpace(
        for files: [MediaFile], _ placements: [ClashResolver.Placement?], in folder: String, startOffset: UInt64?
    ) throws {
        var needed: UInt64 = 0
        for (index, placement) in placements.enumerated() {
            guard let placement else { continue }
            let size = files[index].size
            switch placement {
            case .alreadyThere: continue
            case .overwrite: needed += size
            case .write(_, let kept):
                let start = index == 0 ? min(startOffset ?? kept, kept) : kept
                needed += size - min(start, size)
            }
        }
        guard needed > 0, let free = LocalDisk.freeBytes(near: folder), needed > free else { return }
        throw DownloadError.notEnoughSpace(needed: needed, available: free, folder: LocalDisk.absolute(folder))
    }

    /// The files of a batch worth reading ahead: those to be written that fit one request whole (not
    /// empty ones, nor the first when the batch resumes it at an offset), when there are two or more.
    static func readAheadFiles(
        _ files: [MediaFile], _ placements: [ClashResolver.Placement?], chunkSize: Int, resumingFirst: Bool
    ) -> [MediaFile] {
        var chosen: [MediaFile] = []
        for (index, file) in files.enumerated() {
            guard let placement = placements[index], file.size > 0, file.size <= UInt64(max(chunkSize, 1)) else { continue }
            if index == 0 && resumingFirst { continue }
            if case .alreadyThere = placement { continue }
            chosen.append(file)
        }
        return chosen.count >= 2 ? chosen : []
    }

    /// `file` as a `.part`'s record names it: this camera (maker, model, serial number) and the object.
    public func partSource(_ file: MediaFile) -> PartRecord.Source {
        let info = camera.session.deviceInfo
        return PartRecord.Source(
            camera: [info.manufacturer, info.model, info.serialNumber].joined(separator: " / "), storage: file.storageID,
            handle: file.id, folder: file.folder, name: file.deviceName ?? file.name, size: file.size,
            captured: file.captureDate)
    }

    // MARK: Delete

    /// Deletes one file from the camera and the catalog.
    public func delete(_ file: MediaFile) throws {
        try camera.delete(file)
        catalog.forget(file)
    }

    /// Deletes each file, reporting each one's result (the seed's "failed files").
    public func delete(_ files: [MediaFile], each: ((MediaFile, Error?) -> Void)? = nil) -> [(MediaFile, Error?)] {
        catalog.whileDeleting { files.map { file in
            let error: Error?
            do {
                try delete(file)
                error = nil
            } catch let e {
                error = e
            }
            each?(file, error)
            return (file, error)
        } }
    }

}
