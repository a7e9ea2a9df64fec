import Foundation
import POSIX
import PTP

/// How a card served from a folder follows the folder: quick refreshes before listings, the watcher's full
/// ones, and how a scan is applied to the tree (one at a time, each in the scan turn).
extension Card {
    /// Re-reads the served folder and reports what changed as events. In-memory cards never change
    /// behind our back. A quick refresh (`full: false`, before each listing) re-reads only the folders
    /// whose modification time changed — one stat per folder instead of one per file; a full one (the
    /// background watcher) also notices files that grew in place. Returns the handles added and removed.
    ///
    /// Refreshes run one at a time, each scanning and applying in `scanTurn` (the watcher's and the
    /// quick ones before listings alike): a scan made before a change is never applied after one that saw
    /// it, so a file cannot be removed by a stale scan and come back under a new handle. The events go out
    /// after, outside it, so a subscriber that lists the card in return cannot deadlock with it.
    ///
    /// A background refresh (the watcher's, at the lowest priority) gives up as soon as another refresh
    /// waits for the scan turn: a session's listing never waits behind a scan of 100,000 files, which on a
    /// loaded machine can take seconds at that priority. It then applies nothing and says so (nil).
    @discardableResult
    public func refresh(full: Bool = true) -> (added: [UInt32], removed: [UInt32]) {
        guard rootFD >= 0 else { return ([], []) }
        return publish(withScanTurn { scanAndApply(full: full, cancellation: .never)! })
    }

    /// Runs `body` in the scan turn, making a background scan that holds it give up first. `body` runs
    /// holding `scanTurn` only: it may take `state` and `arrivals`, and must send no event.
    func withScanTurn<T: Sendable, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let waiting = state.withLock {
            $0.refreshesWaiting += 1
            return $0.scanTurnWanted
        }
        waiting?()
        return try scanTurn.withLock { _ throws(E) -> T in
            state.withLock { $0.refreshesWaiting -= 1 }
            return try body()
        }
    }

    /// The watcher's refresh: a full one (or a quick one, when a file was closed) that yields to any other
    /// (see `refresh`); nil when it gave up.
    @discardableResult
    func backgroundRefresh(full: Bool = true) -> (added: [UInt32], removed: [UInt32])? {
        guard rootFD >= 0 else { return ([], []) }
        let result = scanTurn.withLock { _ in
            scanAndApply(full: full, cancellation: Cancellation(when: { [state] in state.withLock { $0.refreshesWaiting > 0 } }))
        }
        return result.map(publish)
    }

    /// Publishes a refresh's changes, out of the scan turn.
    func publish(_ changes: (added: [UInt32], removed: [UInt32], changed: [UInt32])) -> (added: [UInt32], removed: [UInt32]) {
        let (added, removed, changed) = changes
        for h in removed { publish(PTPEvent(.objectRemoved, parameters: [h])) }
        for h in added { publish(PTPEvent(.objectAdded, parameters: [h])) }
        for h in changed { publish(PTPEvent(.objectInfoChanged, parameters: [h])) }
        return (added, removed)
    }

    /// One refresh's scan of the folder and its changes to the tree (in the scan turn).
    func scanAndApply(full: Bool, cancellation: Cancellation) -> (added: [UInt32], removed: [UInt32], changed: [UInt32])? {
        // Each folder's entries, nil for one unchanged since the last scan (its entries are taken from the
        // tree only if something else changed: a quick refresh of an unchanged card of 100,000 files then
        // costs a stat per folder, not a dictionary of every path).
        var listed: [(dir: String, entries: [CardFileSystem.Entry]?)] = []
        var stamps: [String: Date] = [:]
        var anyFolderChanged = full
        var queue: [(path: String, depth: Int)] = [("", 0)]
        while let (dir, depth) = queue.popLast() {
            guard let fd = try? CardFileSystem.openDirectory(rootFD, dir) else {
                anyFolderChanged = true
                continue
            }
            let stamp = CardFileSystem.modificationDate(fd)
            stamps[dir] = stamp
            let entries: [CardFileSystem.Entry]?
            let subfolders: [String]
            if !full, let unchanged = state.withLock({ state -> [String]? in
                guard state.directoryStamps[dir] == stamp else { return nil }
                return state.subfolderNames(inFolder: dir)
            }) {
                CardFileSystem.closeFile(fd)
                entries = nil
                subfolders = unchanged
            } else {
                anyFolderChanged = true
                guard let read = CardFileSystem.list(directoryFD: fd, cancellation: cancellation) else { return nil }
                entries = read
                subfolders = read.filter(\.isDirectory).map(\.name)
            }
            listed.append((dir, entries))
            if depth < 32 {
                for name in subfolders { queue.append((dir.isEmpty ? name : dir + "/" + name, depth + 1)) }
            }
        }
        state.withLock { $0.scanListed }?()
        if cancellation.isCancelled { return nil }
        // What inotify said up to now covers every file the listing above saw: a file found open for
        // writing is held back (see `CardArrivals`).
        absorbFileEvents()
        let holding = arrivals.withLock { $0.active }
        let listedFolders = Array(stamps.keys)
        // Nothing moved since the last look: the common case before each listing.
        if !anyFolderChanged && state.withLock({ Set($0.directoryStamps.keys) == Set(stamps.keys) }) {
            if holding { arrivals.withLock { $0.watch(listedFolders, root: folder ?? "") } }
            return ([], [], [])
        }
        var seen: [String: CardFileSystem.Entry] = [:]
        // Paths in the order found: a folder always before what it holds.
        var order: [String] = []
        for (dir, read) in listed {
            guard let entries = read ?? state.withLock({ $0.entries(inFolder: dir) }) else { continue }
            seen.reserveCapacity(seen.count + entries.count)
            for entry in entries {
                let path = dir.isEmpty ? entry.name : dir + "/" + entry.name
                seen[path] = entry
                order.append(path)
            }
        }
        var added: [UInt32] = []
        var removed: [UInt32] = []
        var changed: [UInt32] = []
        var touchedParents = Set<UInt32>()
        var heldBack: [String] = []
        let now = monotonicSeconds()
        // `arrivals` is taken inside `state` here (the lock order `Card.state` gives).
        state.withLock { state in
            for (path, handle) in state.handleByPath where seen[path] == nil && state.diskHandles.contains(handle) {
                state.remove(handle)
                removed.append(handle)
            }
            for path in order {
                let entry = seen[path]!
                if let existing = state.handleByPath[path] {
                    if var o = state.objects[existing], !entry.isDirectory,
                        o.size != entry.size || o.modified != entry.modified
                    {
                        o.size = entry.size
                        o.modified = entry.modified
                        state.objects[existing] = o
                        changed.append(existing)
                    }
                    continue
                }
                let parentPath = path.split(separator: "/").dropLast().joined(separator: "/")
                if holding, !entry.isDirectory,
                    arrivals.withLock({ $0.holdsBack(path, size: entry.size, modified: entry.modified, now: now) })
                {
                    // Not whole yet: its folder is read again by the next refresh, quick ones included.
                    heldBack.append(path)
                    stamps[parentPath] = nil
                    continue
                }
                let parent = parentPath.isEmpty ? 0 : (state.handleByPath[parentPath] ?? 0)
                let handle = state.insert(
                    path: path, name: entry.name, parent: parent,
                    content: entry.isDirectory ? .folder : .file(relativePath: path),
                    size: entry.isDirectory ? 0 : entry.size, modified: entry.modified, keepOrder: false)
                touchedParents.insert(parent)
                state.diskHandles.insert(handle)
                if entry.isDirectory { state.diskFolders.insert(handle) }
                added.append(handle)
            }
            state.sortChildren(touchedParents)
            state.directoryStamps = stamps
            if holding {
                let inTree = state.handleByPath
                arrivals.withLock {
                    $0.forget { inTree[$0] != nil }
                    $0.watch(listedFolders, root: folder ?? "")
                }
            }
        }
        if holding, let hook = state.withLock({ $0.heldBack }) {
            for path in heldBack { hook(path) }
        }
        return (added, removed, changed)
    }
    // What a scan does, as it does it, for whoever watches the card (a log; a test that acts between a
    // scan's steps). Each replaces the one set before; nil sets none.

    /// Calls `hook` when a caller starts waiting for the scan turn (a background scan holding it gives up).
    func onScanTurnWanted(_ hook: (@Sendable () -> Void)?) { state.withLock { $0.scanTurnWanted = hook } }
    /// Calls `hook` when a scan has listed the folder, before it applies what it found (a change made then
    /// is the next scan's).
    func onScanListed(_ hook: (@Sendable () -> Void)?) { state.withLock { $0.scanListed = hook } }
    /// Calls `hook` with each file a scan held back (not whole yet).
    func onHeldBack(_ hook: (@Sendable (String) -> Void)?) { state.withLock { $0.heldBack = hook } }
}
