import Foundation
import POSIX
import PTP

/// How a card served from a folder follows the folder: quick refreshes before listings, the watcher's full
/// ones, and how a scan is applied to the tree (one at a time, under `scanLock`).
extension Card {
    /// Re-reads the served folder and reports what changed as events. In-memory cards never change
    /// behind our back. A quick refresh (`full: false`, before each listing) re-reads only the folders
    /// whose modification time changed — one stat per folder instead of one per file; a full one (the
    /// background watcher) also notices files that grew in place. Returns the handles added and removed.
    ///
    /// Refreshes run one at a time, each scanning and applying under `scanLock` (the watcher's and the
    /// quick ones before listings alike): a scan made before a change is never applied after one that saw
    /// it, so a file cannot be removed by a stale scan and come back under a new handle. The events go out
    /// after, outside it, so a subscriber that lists the card in return cannot deadlock with it.
    ///
    /// A background refresh (the watcher's, at the lowest priority) gives up as soon as another refresh
    /// waits for `scanLock`: a session's listing never waits behind a scan of 100,000 files, which on a
    /// loaded machine can take seconds at that priority. It then applies nothing and says so (nil).
    @discardableResult
    public func refresh(full: Bool = true) -> (added: [UInt32], removed: [UInt32]) {
        guard rootFD >= 0 else { return ([], []) }
        return publish(withScanLock { scanAndApply(full: full, shouldStop: { false })! })
    }

    /// Runs `body` under `scanLock`, making a background scan that holds it give up first.
    func withScanLock<T>(_ body: () throws -> T) rethrows -> T {
        let waiting = lock.withLock {
            refreshesWaiting += 1
            return waitingForScanForTesting
        }
        waiting?()
        scanLock.lock()
        lock.withLock { refreshesWaiting -= 1 }
        defer { scanLock.unlock() }
        return try body()
    }

    /// The watcher's refresh: a full one (or a quick one, when a file was closed) that yields to any other
    /// (see `refresh`); nil when it gave up.
    @discardableResult
    func backgroundRefresh(full: Bool = true) -> (added: [UInt32], removed: [UInt32])? {
        guard rootFD >= 0 else { return ([], []) }
        let result = scanLock.withLock {
            scanAndApply(full: full, shouldStop: { [self] in lock.withLock { refreshesWaiting > 0 } })
        }
        return result.map(publish)
    }

    /// Publishes a refresh's changes, outside `scanLock`.
    func publish(_ changes: (added: [UInt32], removed: [UInt32], changed: [UInt32])) -> (added: [UInt32], removed: [UInt32]) {
        let (added, removed, changed) = changes
        for h in removed { publish(PTPEvent(.objectRemoved, parameters: [h])) }
        for h in added { publish(PTPEvent(.objectAdded, parameters: [h])) }
        for h in changed { publish(PTPEvent(.objectInfoChanged, parameters: [h])) }
        return (added, removed)
    }

    /// One refresh's scan of the folder and its changes to the tree (`scanLock` held).
    func scanAndApply(full: Bool, shouldStop: () -> Bool) -> (added: [UInt32], removed: [UInt32], changed: [UInt32])? {
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
            if !full, let unchanged = lock.withLock({ () -> [String]? in
                guard directoryStamps[dir] == stamp else { return nil }
                return subfolderNamesLocked(inFolder: dir)
            }) {
                CardFileSystem.closeFile(fd)
                entries = nil
                subfolders = unchanged
            } else {
                anyFolderChanged = true
                guard let read = CardFileSystem.list(directoryFD: fd, shouldStop: shouldStop) else { return nil }
                entries = read
                subfolders = read.filter(\.isDirectory).map(\.name)
            }
            listed.append((dir, entries))
            if depth < 32 {
                for name in subfolders { queue.append((dir.isEmpty ? name : dir + "/" + name, depth + 1)) }
            }
        }
        lock.withLock { afterScanForTesting }?()
        if shouldStop() { return nil }
        // What inotify said up to now covers every file the listing above saw: a file found open for
        // writing is held back (see `CardArrivals`).
        absorbFileEvents()
        let holding = arrivals.withLock { $0.active }
        let listedFolders = Array(stamps.keys)
        // Nothing moved since the last look: the common case before each listing.
        if !anyFolderChanged && lock.withLock({ Set(directoryStamps.keys) == Set(stamps.keys) }) {
            if holding { arrivals.withLock { $0.watch(listedFolders, root: folder ?? "") } }
            return ([], [], [])
        }
        var seen: [String: CardFileSystem.Entry] = [:]
        // Paths in the order found: a folder always before what it holds.
        var order: [String] = []
        for (dir, read) in listed {
            guard let entries = read ?? lock.withLock({ entriesLocked(inFolder: dir) }) else { continue }
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
        lock.withLock {
            for (path, handle) in handleByPath where seen[path] == nil && diskHandles.contains(handle) {
                removeLocked(handle)
                removed.append(handle)
            }
            for path in order {
                let entry = seen[path]!
                if let existing = handleByPath[path] {
                    if var o = objects[existing], !entry.isDirectory, o.size != entry.size || o.modified != entry.modified {
                        o.size = entry.size
                        o.modified = entry.modified
                        objects[existing] = o
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
                let parent = parentPath.isEmpty ? 0 : (handleByPath[parentPath] ?? 0)
                let handle = insertLocked(
                    path: path, name: entry.name, parent: parent,
                    content: entry.isDirectory ? .folder : .file(relativePath: path),
                    size: entry.isDirectory ? 0 : entry.size, modified: entry.modified, keepOrder: false)
                touchedParents.insert(parent)
                diskHandles.insert(handle)
                if entry.isDirectory { diskFolders.insert(handle) }
                added.append(handle)
            }
            sortChildrenLocked(touchedParents)
            directoryStamps = stamps
            if holding {
                arrivals.withLock {
                    $0.forget { handleByPath[$0] != nil }
                    $0.watch(listedFolders, root: folder ?? "")
                }
            }
        }
        if holding, let hook = lock.withLock({ heldBackForTesting }) { heldBack.forEach(hook) }
        return (added, removed, changed)
    }
    func setWaitingForScanForTesting(_ hook: (@Sendable () -> Void)?) { lock.withLock { waitingForScanForTesting = hook } }
    func setAfterScanForTesting(_ hook: (@Sendable () -> Void)?) { lock.withLock { afterScanForTesting = hook } }
    func setHeldBackForTesting(_ hook: (@Sendable (String) -> Void)?) { lock.withLock { heldBackForTesting = hook } }

    /// What a folder held at the last scan, as directory entries (lock held); nil when unknown.
    func entriesLocked(inFolder path: String) -> [CardFileSystem.Entry]? {
        scannedChildrenLocked(ofFolder: path)?.map {
            CardFileSystem.Entry(name: $0.name, isDirectory: $0.isFolder, size: $0.size, modified: $0.modified)
        }
    }

    /// The names of the folders a folder held at the last scan (lock held); nil when unknown.
    func subfolderNamesLocked(inFolder path: String) -> [String]? {
        // From the few folders rather than the folder's files: a quick refresh of a folder of 100,000
        // files then costs nothing per file.
        guard let handle = folderHandleLocked(path), handle == 0 || diskFolders.contains(handle) else { return nil }
        return diskFolders.compactMap { objects[$0].flatMap { $0.parent == handle && $0.isFolder ? $0 : nil } }
            .sorted { $0.name < $1.name }.map(\.name)
    }

    /// The objects found on disk in a folder at the last scan (lock held; not the card's own writes in
    /// progress); nil when the folder is unknown.
    func scannedChildrenLocked(ofFolder path: String) -> [CardObject]? {
        guard let handle = folderHandleLocked(path) else { return nil }
        return (children[handle] ?? []).compactMap { h in diskHandles.contains(h) ? objects[h] : nil }
    }

    /// The handle of the folder at `path` (0 for the top of the card; lock held); nil when unknown.
    func folderHandleLocked(_ path: String) -> UInt32? {
        path.isEmpty ? 0 : handleByPath[path]
    }
}
