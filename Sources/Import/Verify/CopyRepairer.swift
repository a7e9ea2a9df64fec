import Checksums
import Failures
import Foundation
import MediaFormats
import MediaManager
import POSIX

/// The open camera `verify --repair` may fetch a file from again, with the ledgers it has.
public struct RepairCamera: Sendable {
    public let session: MediaSession
    public let ledgers: CameraLedgers

    public init(session: MediaSession, ledgers: CameraLedgers) {
        self.session = session
        self.ledgers = ledgers
    }
}

/// Replaces the copies a re-check (`CopyVerifier`) found wrong with bytes proven to be the file's: another
/// copy of the same file the ledger knows (the first copy, a `--backup` copy), read from the disk now and
/// giving the recorded checksum; else, while the camera it came from is open and still holds it, the
/// camera's file, whose bytes give that checksum as they arrive. The bytes go through `PATH.part` and take
/// the copy's name only once proven and flushed; the copy that failed is moved aside first
/// (`PATH.verify-failed`), never lost. Each repair is recorded in the ledger entry and in the repairs log at
/// the copy's destination root (`RepairLog`).
public final class CopyRepairer {
    private let camera: RepairCamera?
    private let cancellation: Cancellation?
    /// Each copy the ledgers record, with the ledger and its entry.
    private let recorded: [String: (ledger: ImportLedger, entry: LedgerEntry)]
    /// The camera's files by identity, listed when first needed.
    private var onCard: [ObjectIdentity: [MediaFile]]?

    /// The ledgers in `ledgerFolder` (`LedgerLocation.folder`) say which copies each file has; `camera`,
    /// when one is open; `cancellation` stops the repairs between two copies and a download from the camera
    /// between two requests.
    public init(ledgerFolder: String, camera: RepairCamera? = nil, cancellation: Cancellation? = nil) throws {
        self.camera = camera
        self.cancellation = cancellation
        var recorded: [String: (ledger: ImportLedger, entry: LedgerEntry)] = [:]
        for ledger in try CopyVerifier.ledgers(in: ledgerFolder) {
            for entry in ledger.entries {
                for path in entry.allCopies { recorded[path] = (ledger, entry) }
            }
        }
        self.recorded = recorded
    }

    /// Repairs each copy of `problems` in order, saying each result as it comes (`each`); `progress` gets how
    /// many copies were begun and the bytes written for them so far. A failure to record a repair (the ledger, the log)
    /// throws: the copy is in place, proven, and a re-check finds it right.
    public func repair(
        _ problems: [CopyProblem], progress: ((_ done: Int, _ bytes: UInt64) -> Void)? = nil,
        each: (RepairResult) -> Void
    ) throws -> RepairReport {
        var report = RepairReport()
        // Copies known to be wrong are not read again as a source, until repaired.
        var failing: [String: CopyProblem] = [:]
        for problem in problems where failing[problem.copy.path] == nil { failing[problem.copy.path] = problem }
        var bytesBefore: UInt64 = 0
        for (index, problem) in problems.enumerated() {
            if cancellation?.isCancelled == true {
                report.interrupted = true
                break
            }
            let done = bytesBefore
            let result: RepairResult
            do {
                result = try repair(problem, failing: failing) { progress?(index + 1, done + $0) }
            } catch is RepairInterrupted {
                report.interrupted = true
                break
            }
            switch result {
            case .repaired(let repair):
                failing[repair.path] = nil
                report.repaired.append(repair)
            case .notRepaired(let refused):
                report.notRepaired.append(refused)
            }
            bytesBefore += problem.copy.size ?? recorded[problem.copy.path]?.entry.size ?? 0
            progress?(index + 1, bytesBefore)
            each(result)
        }
        return report
    }

    /// Ctrl-C during a download from the camera (its `.part` is kept, to be continued).
    private struct RepairInterrupted: Error {}

    /// What the camera gave: its file, proven (`FOLDER/NAME` on the card), or why not.
    private enum CameraFetch {
        case proven(cardPath: String)
        case refused(CameraAttempt)
    }

    /// Repairs one copy: from another copy, else the camera; the copy that failed moved aside, the repair
    /// recorded. `progress` gets the bytes written for it so far.
    private func repair(
        _ problem: CopyProblem, failing: [String: CopyProblem], progress: @escaping (UInt64) -> Void
    ) throws -> RepairResult {
        let copy = problem.copy
        func refused(_ why: RepairRefusal) -> RepairResult { .notRepaired(NotRepaired(problem: problem, why: why)) }
        guard let expected = copy.expected else { return refused(.noChecksum) }
        guard let (ledger, entry) = recorded[copy.path], entry.checksum == expected else { return refused(.unknownToLedgers) }
        let folder = LocalDisk.parentFolder(of: copy.path)
        // A folder that is gone may be a drive not mounted: its mount point is not filled.
        guard LocalDisk.isDirectory(folder) else { return refused(.folderGone(folder)) }

        let local: (source: String?, tried: [CopyProblem])
        do {
            local = try copyFromAnother(entry, recordedBy: ledger, expected: expected, into: copy.path, failing: failing, progress: progress)
        } catch {
            return refused(.failed(error))
        }
        let source: RepairSource
        if let other = local.source {
            source = .copy(other)
        } else {
            switch try fetchFromCamera(entry, recordedBy: ledger, expected: expected, into: copy.path, progress: progress) {
            case .proven(let cardPath): source = .camera(cardPath)
            case .refused(let attempt): return refused(.noProvenSource(tried: local.tried, camera: attempt))
            }
        }
        let keptAs: String?
        do {
            keptAs = try LocalCopy.replace(copy.path, withPart: copy.path + ".part")
        } catch {
            return refused(.failed(error))
        }
        let repair = CopyRepair(path: copy.path, source: source, checksum: expected, keptAs: keptAs)
        let now = Date()
        try ledger.recordRepair(LedgerRepair(path: copy.path, from: source.recorded, at: now, kept: keptAs), of: entry.identity)
        try RepairLog.note(repair, at: now)
        return .repaired(repair)
    }

    /// Writes `path.part` from the first other copy of `entry` that gives `expected` as it is read from the
    /// disk now (copies found wrong in this run are not read); returns that copy, or nil and what each other
    /// copy is. A failure to write the `.part` throws.
    private func copyFromAnother(
        _ entry: LedgerEntry, recordedBy ledger: ImportLedger, expected: Checksum, into path: String,
        failing: [String: CopyProblem], progress: @escaping (UInt64) -> Void
    ) throws -> (source: String?, tried: [CopyProblem]) {
        var tried: [CopyProblem] = []
        for other in entry.allCopies where other != path {
            if let known = failing[other] {
                tried.append(known)
                continue
            }
            let check = CopyToCheck(path: other, expected: expected, size: entry.size, recordedBy: ledger.path)
            guard let size = LocalDisk.regularFileSize(other) else {
                tried.append(.missing(check))
                continue
            }
            guard size == entry.size else {
                tried.append(.wrongSize(check, found: size))
                continue
            }
            do {
                let found = try LocalCopy.writePart(from: other, for: path, expected: expected, progress: progress)
                if found == expected { return (other, tried) }
                tried.append(.changed(check, found: found))
            } catch ImportError.local(let error) where error.path == other {
                LocalDisk.remove(path + ".part")
                tried.append(.unreadable(check, error))
            } catch {
                LocalDisk.remove(path + ".part")
                throw error
            }
        }
        return (nil, tried)
    }

    /// Downloads the camera's file of `entry` into `path.part` through the normal download path (resuming
    /// a `.part` a stopped repair kept, as far as it is proven), and keeps it only when its bytes give
    /// `expected`; the file's `FOLDER/NAME` on the card, or what the camera could not do.
    private func fetchFromCamera(
        _ entry: LedgerEntry, recordedBy ledger: ImportLedger, expected: Checksum, into path: String,
        progress: @escaping (UInt64) -> Void
    ) throws -> CameraFetch {
        guard let camera else { return .refused(.notOpen) }
        guard camera.ledgers.all.contains(where: { $0.path == ledger.path }) else {
            return .refused(.otherCamera(recordedFor: ledger.cameraKey))
        }
        let file: MediaFile
        do {
            let same = try filesOnCard()[entry.identity] ?? []
            guard let found = same.first(where: { camera.ledgers.ledger(for: $0).path == ledger.path }) else {
                return .refused(.notOnCard)
            }
            file = found
        } catch {
            return .refused(.failed(error))
        }
        let session = camera.session
        var options = DownloadJob.Options()
        // The copy's name is taken (by the copy that failed, or kept free): the `.part` beside it never
        // takes it here; `LocalCopy.replace` does, once proven.
        options.nameFound = true
        options.wholeFile = !session.camera.canReadRanges
        options.modificationTime =
            entry.takenTime?.instant().timeIntervalSince1970 ?? LocalDisk.modificationTime(path)
            ?? file.captureDate?.timeIntervalSince1970
        let job = DownloadJob(
            remoteName: file.name, size: file.size, destinationFolder: LocalDisk.parentFolder(of: path),
            localName: (path as NSString).lastPathComponent, options: options, source: session.partSource(file))
        let part: CompletedPart
        do {
            let transferred = try job.transfer(
                read: { offset, count, sink in try session.camera.read(file, offset: offset, count: count, into: sink) },
                cancellation: cancellation, progress: { progress($0.bytesDone) }, syncToDisk: true)
            guard case .complete(let whole) = transferred else { return .refused(.failed(ImportError.appeared(path: path))) }
            part = whole
        } catch {
            if cancellation?.isCancelled == true || error.isCancellation { throw RepairInterrupted() }
            return .refused(.failed(error))
        }
        // XXH3-128 of the bytes as they came; an entry recorded with SHA-256 has them read again for it.
        let found = part.checksum.flatMap { $0.algorithm == expected.algorithm ? $0 : nil }
            ?? LocalCopy.checksum(of: part.partPath, expected.algorithm)
        guard let found, found == expected else {
            LocalDisk.remove(part.partPath)
            return .refused(found.map { .differs(found: $0) } ?? .failed(ImportError.local(SystemError(.read, path: part.partPath, errno: EIO))))
        }
        return .proven(cardPath: file.path)
    }

    /// The camera's files by identity (name, size, capture date), its catalog walked once.
    private func filesOnCard() throws -> [ObjectIdentity: [MediaFile]] {
        if let onCard { return onCard }
        guard let camera else { return [:] }
        let catalog = camera.session.catalog
        try catalog.ensureLoaded()
        var files: [ObjectIdentity: [MediaFile]] = [:]
        for folder in catalog.folderPaths {
            for file in catalog.contents(of: folder) ?? [] where !file.isFolder {
                files[ObjectIdentity(name: file.name, size: file.size, captured: file.captureDate), default: []].append(file)
            }
        }
        onCard = files
        return files
    }
}

extension LocalCopy {
    /// Puts the whole, flushed `.part` at `part` in the place of the copy at `path`: whatever is there (the
    /// copy that failed) is first renamed `PATH.verify-failed` (`-2`, `-3`... when that is taken), kept;
    /// returns that name, nil when nothing was there. Should the last rename fail, the copy is put back.
    static func replace(_ path: String, withPart part: String) throws -> String? {
        let keptAs = LocalDisk.exists(path) ? try setAside(path) : nil
        do throws(SystemError) {
            try LocalDisk.renameKeepingExisting(part, to: path)
        } catch {
            if let keptAs { try? LocalDisk.renameKeepingExisting(keptAs, to: path) }
            throw ImportError.local(error)
        }
        LocalDisk.syncFolder(of: path)
        return keptAs
    }

    /// Renames a copy that failed its proof to `PATH.verify-failed` (`-2`, `-3`... when that is taken: an
    /// earlier bad copy is never replaced); returns the name it took.
    static func setAside(_ path: String) throws -> String {
        var aside = path + ".verify-failed"
        var attempt = 2
        while true {
            do throws(SystemError) {
                try LocalDisk.renameKeepingExisting(path, to: aside)
                return aside
            } catch where error.errno == EEXIST {
                aside = path + ".verify-failed-\(attempt)"
                attempt += 1
            } catch {
                throw ImportError.local(error)
            }
        }
    }
}
