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
final class GroupCommitter: @unchecked Sendable {
    // Safety: `closed` and `done` are touched only with `condition` locked; `open`, `openBytes`,
    // `openSince` and `worker` only by the one thread that owns the batch.

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

    let folder: String
    let policy: Policy
    private let condition = NSCondition()
    private var closed: [[(tag: Int, part: CompletedPart)]] = []
    private var done: [Committed] = []
    private var ending = false
    private var open: [(tag: Int, part: CompletedPart)] = []
    private var openBytes: UInt64 = 0
    private var openSince = 0.0
    private var worker: JoinableThread?

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
        condition.lock()
        defer { condition.unlock() }
        let taken = done
        done = []
        return taken
    }

    /// Commits what is left (the open group with one more sync), waits for the thread, and returns what
    /// `take()` has not returned yet.
    func finish() -> [Committed] {
        if worker == nil {
            let last = open
            open = []
            if !last.isEmpty { append(commit(last)) }
        } else {
            closeGroup()
            condition.lock()
            ending = true
            condition.broadcast()
            condition.unlock()
            worker?.join()
            worker = nil
        }
        return take()
    }

    private func closeGroup() {
        guard !open.isEmpty else { return }
        condition.lock()
        closed.append(open)
        condition.broadcast()
        condition.unlock()
        open = []
        openBytes = 0
        if worker == nil {
            worker = try? JoinableThread(name: "group commit") { [self] in work() }
            if worker == nil { append(commit(takeClosed())) }  // no thread to be had: commit here, in order
        }
    }

    /// The worker: each closed group in turn, until `finish` says no more will come.
    private func work() {
        condition.lock()
        while true {
            if closed.isEmpty {
                if ending { break }
                condition.wait()
                continue
            }
            let group = closed.removeFirst()
            condition.unlock()
            let outcomes = commit(group)
            condition.lock()
            done += outcomes
        }
        condition.unlock()
    }

    /// One sync, then the renames (a file that appeared at a name meanwhile makes that one fail).
    private func commit(_ group: [(tag: Int, part: CompletedPart)]) -> [Committed] {
        guard !group.isEmpty else { return [] }
        policy.sync(folder)
        return group.map { item in (item.tag, Result { try item.part.commit() }) }
    }

    private func takeClosed() -> [(tag: Int, part: CompletedPart)] {
        condition.lock()
        defer { condition.unlock() }
        let groups = closed
        closed = []
        return groups.flatMap { $0 }
    }

    private func append(_ outcomes: [Committed]) {
        condition.lock()
        done += outcomes
        condition.unlock()
    }
}
