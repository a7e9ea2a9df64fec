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

    /// What the batch's thread and the sync thread share: the groups closed and not yet synced, the
    /// outcomes not yet taken.
    private struct Shared {
        var closed: [Group] = []
        var done: [Committed] = []
        var ending = false
    }

    let folder: String
    let policy: Policy
    private let shared = LockedCondition(Shared())
    // The rest belongs to the batch's thread.
    private var open: Group = []
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
        shared.withLock { shared in
            let taken = shared.done
            shared.done = []
            return taken
        }
    }

    /// Commits what is left (the open group with one more sync), waits for the thread, and returns what
    /// `take()` has not returned yet.
    func finish() -> [Committed] {
        if worker == nil {
            let last = open
            open = []
            if !last.isEmpty { append(Self.commit(last, folder: folder, policy: policy)) }
        } else {
            closeGroup()
            shared.change { $0.ending = true }
            worker?.join()
            worker = nil
        }
        return take()
    }

    private func closeGroup() {
        guard !open.isEmpty else { return }
        let group = open
        shared.change { $0.closed.append(group) }
        open = []
        openBytes = 0
        if worker == nil {
            let (shared, folder, policy) = (shared, folder, policy)
            worker = try? JoinableThread(name: "group commit") { Self.work(shared, folder: folder, policy: policy) }
            if worker == nil { append(Self.commit(takeClosed(), folder: folder, policy: policy)) }  // no thread: commit here, in order
        }
    }

    /// The worker: each closed group in turn, until `finish` says no more will come.
    private static func work(_ shared: LockedCondition<Shared>, folder: String, policy: Policy) {
        while true {
            let next: Group?? = shared.wait(until: nil, for: { !$0.closed.isEmpty || $0.ending }, then: { state in
                state.closed.isEmpty ? nil : state.closed.removeFirst()
            })
            guard let group = next ?? nil else { return }
            let outcomes = commit(group, folder: folder, policy: policy)
            shared.withLock { $0.done += outcomes }
        }
    }

    /// One sync, then the renames (a file that appeared at a name meanwhile makes that one fail).
    private static func commit(_ group: Group, folder: String, policy: Policy) -> [Committed] {
        guard !group.isEmpty else { return [] }
        policy.sync(folder)
        return group.map { item in (item.tag, Result { try item.part.commit() }) }
    }

    private func takeClosed() -> Group {
        shared.withLock { shared in
            let groups = shared.closed
            shared.closed = []
            return groups.flatMap { $0 }
        }
    }

    private func append(_ outcomes: [Committed]) {
        shared.withLock { $0.done += outcomes }
    }
}
