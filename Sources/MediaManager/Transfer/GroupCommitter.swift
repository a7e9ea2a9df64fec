import Foundation
import POSIX

/// Puts the whole `.part` files of a batch in place in groups: a group is renamed only after one sync of
/// the filesystem that began once all its files were complete, so a file never takes its final name before
/// its bytes are on disk (the promise of `fetch`), at one sync per group rather than one fsync per file.
///
/// The syncs and renames run on a thread of their own, one group after another in the order they were
/// closed, while the caller goes on downloading: group N is written out while group N+1 arrives, and a
/// batch waits at its end only for the sync of its last group. (Before, the download stopped for every
/// group's sync, which also waits for whatever other processes wrote to that disk.) A batch whose files
/// all fit one group (a single `fetch NAME`) never starts the thread: `finish()` syncs on the caller's.
///
/// Used from one thread (the batch's): `add`, `take` and `finish`; the results come back tagged, in the
/// order the files were added.
final class GroupCommitter {
    /// When a group is closed and handed to the sync.
    struct Policy: Sendable {
        /// Files, or bytes, that close a group.
        var files = 256
        var bytes: UInt64 = 256 << 20
        /// A group whose first file has waited this many seconds is closed with the next file, so that
        /// files still land while a slow link brings a large group.
        var maximumWait: Double = 1
        /// Flushes the filesystem holding a folder (a seam: tests count the syncs and check their order).
        var sync: @Sendable (String) -> Void = { LocalDisk.syncFilesystem(containing: $0) }
    }

    typealias Committed = (tag: Int, outcome: Result<DownloadOutcome, Error>)
    typealias Group = [(tag: Int, part: CompletedPart)]

    let folder: String
    let policy: Policy
    /// The outcomes committed and not yet taken (the worker adds, the batch's thread takes).
    private let done = Locked<[Committed]>([])
    // The rest belongs to the batch's thread.
    private var open: Group = []
    private var openBytes: UInt64 = 0
    private var openSince = 0.0
    /// The thread the groups are committed on, one after another (the one worker type that runs background
    /// commits, as an import's `ImportCommitter` does); made with the first group closed before the end.
    private var worker: SerialWorker?

    init(folder: String, policy: Policy = Policy()) {
        self.folder = folder
        self.policy = policy
    }

    /// A whole `.part`, its data written (not yet synced); `tag` comes back with its outcome.
    func add(_ part: CompletedPart, tag: Int) {
        if open.isEmpty { openSince = monotonicSeconds() }
        open.append((tag, part))
        openBytes += part.size
        if open.count >= policy.files || openBytes >= policy.bytes || monotonicSeconds() - openSince >= policy.maximumWait {
            closeGroup()
        }
    }

    /// The files committed since the last call, in order, without waiting.
    func take() -> [Committed] {
        done.withLock { done in
            let taken = done
            done = []
            return taken
        }
    }

    /// Commits what is left (the open group with one more sync), waits for the thread, and returns what
    /// `take()` has not returned yet.
    func finish() -> [Committed] {
        if let worker {
            closeGroup()
            worker.close()
            self.worker = nil
        } else {
            let last = open
            open = []
            if !last.isEmpty {
                let outcomes = Self.commit(last, folder: folder, policy: policy)
                done.withLock { $0 += outcomes }
            }
        }
        return take()
    }

    /// Hands the open group to the worker (started now, for the first group).
    private func closeGroup() {
        guard !open.isEmpty else { return }
        let group = open
        open = []
        openBytes = 0
        let worker = worker ?? SerialWorker(name: "group commit", maxQueuedCost: Int.max)
        self.worker = worker
        let (done, folder, policy) = (done, folder, policy)
        worker.submit {
            let outcomes = Self.commit(group, folder: folder, policy: policy)
            done.withLock { $0 += outcomes }
        }
    }

    /// One sync, then the renames (a file that appeared at a name meanwhile makes that one fail).
    private static func commit(_ group: Group, folder: String, policy: Policy) -> [Committed] {
        guard !group.isEmpty else { return [] }
        policy.sync(folder)
        return group.map { item in (item.tag, Result { try item.part.commit() }) }
    }
}
