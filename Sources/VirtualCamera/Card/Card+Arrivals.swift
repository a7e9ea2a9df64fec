import Foundation
import POSIX

#if canImport(Glibc)
    import Glibc
#endif

/// Files that arrive in a watched card folder are handed over (put in the tree, announced with ObjectAdded)
/// only when whole: a file copied in appears at its full name long before its last byte is written, and a
/// watcher that announced it then would have `watch --fetch` download half a photo.
///
/// While the card is watched, inotify says which files are open for writing (created, written) and when
/// their writer closed them (IN_CLOSE_WRITE) or renamed them in whole (IN_MOVED_TO); a file open for writing
/// is held back until then. A file inotify said nothing of (a network folder written by another machine,
/// a folder made before its watch was added, a hard link, events lost to a full queue) is handed over once
/// two scans at least `settle` seconds apart found it with the same size and modification time.
struct CardArrivals {
    struct Sighting {
        var size: UInt64
        var modified: Date
        var since: Double
    }

    /// inotify on the card's folders; nil when not watching, or when inotify could not start.
    var events: FolderEvents?
    var watchByFolder: [String: Int32] = [:]
    var folderByWatch: [Int32: String] = [:]
    /// Paths (from the card's root) open for writing, as far as inotify said.
    var writing: Set<String> = []
    /// Paths whose writer closed them, or that were renamed in, not yet in the tree.
    var whole: Set<String> = []
    /// Files held back for want of word from inotify: how they looked when first seen so.
    var sightings: [String: Sighting] = [:]
    /// True while the card is watched: only then are files held back.
    var active = false
    var settle: Double = 2

    /// Whether a file a scan found, not yet in the tree, waits (still being written, or not yet seen
    /// unchanged for `settle` seconds); `now` in monotonic seconds.
    mutating func holdsBack(_ path: String, size: UInt64, modified: Date, now: Double) -> Bool {
        guard active else { return false }
        if writing.contains(path) {
            sightings[path] = nil
            return true
        }
        if whole.remove(path) != nil {
            sightings[path] = nil
            return false
        }
        if let seen = sightings[path], seen.size == size, seen.modified == modified {
            guard now - seen.since >= settle else { return true }
            sightings[path] = nil
            return false
        }
        sightings[path] = Sighting(size: size, modified: modified, since: now)
        return true
    }

    /// Applies inotify's events; true when one of them may let a held file go or changes the tree (a file
    /// closed or renamed in, something removed, a folder made, events lost), so a refresh is worth making.
    /// `isFreshFile` says whether a path just created is a new regular file with one link (a writer's file,
    /// as opposed to a hard link or symlink, which is whole at once).
    mutating func absorb(isFreshFile: (String) -> Bool) -> Bool {
        guard let events else { return false }
        var worthARefresh = false
        for event in events.take() {
            if event.kinds.contains(.overflowed) {
                // What was being written is unknown now: those files wait until they stop changing.
                writing = []
                worthARefresh = true
                continue
            }
            guard let folder = folderByWatch[event.watch] else { continue }
            if event.kinds.contains(.folderGone) && event.name.isEmpty {
                folderByWatch[event.watch] = nil
                if watchByFolder[folder] == event.watch { watchByFolder[folder] = nil }
                events.remove(event.watch)
                worthARefresh = true
                continue
            }
            let path = folder.isEmpty ? event.name : folder + "/" + event.name
            if event.isFolder {
                if !event.kinds.isDisjoint(with: [.created, .movedIn, .movedOut, .deleted]) { worthARefresh = true }
                continue
            }
            if event.kinds.contains(.created) {
                if isFreshFile(path) { writing.insert(path) } else { whole.insert(path) }
            }
            if event.kinds.contains(.modified) { writing.insert(path) }
            if !event.kinds.isDisjoint(with: [.closedAfterWriting, .movedIn]) {
                writing.remove(path)
                whole.insert(path)
                worthARefresh = true
            }
            if !event.kinds.isDisjoint(with: [.movedOut, .deleted]) {
                writing.remove(path)
                whole.remove(path)
                sightings[path] = nil
                worthARefresh = true
            }
        }
        return worthARefresh
    }

    /// Watches each of `folders` (paths from the card's root) not watched yet, and stops watching those no
    /// longer there. A folder that cannot be watched (the limit of watches reached) is left to `settle`.
    mutating func watch(_ folders: some Collection<String>, root: String) {
        guard let events else { return }
        let present = Set(folders)
        for (folder, watch) in watchByFolder where !present.contains(folder) {
            events.remove(watch)
            watchByFolder[folder] = nil
            folderByWatch[watch] = nil
        }
        for folder in present where watchByFolder[folder] == nil {
            guard let watch = try? events.add(folder: folder.isEmpty ? root : root + "/" + folder) else { continue }
            watchByFolder[folder] = watch
            folderByWatch[watch] = folder
        }
    }

    /// Forgets what it knew of the paths that are in the tree (handed over, or files rewritten in place).
    mutating func forget(where inTree: (String) -> Bool) {
        whole = whole.filter { !inTree($0) }
        sightings = sightings.filter { !inTree($0.key) }
    }
}

extension Card {
    /// Reads what inotify said since the last look; true when a refresh may now hand something over.
    @discardableResult
    func absorbFileEvents() -> Bool {
        let root = rootFD
        return arrivals.withLock { arrivals in
            arrivals.absorb(isFreshFile: { path in
                var info = stat()
                guard fstatat(root, path, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
                return info.st_mode & S_IFMT == S_IFREG && info.st_nlink == 1
            })
        }
    }

    /// Starts inotify on every folder the card knows (the watcher's start); without inotify, files are
    /// handed over once they stop changing.
    func startFileEvents(settle: Double, inotify: Bool) {
        let folders = state.withLock { Array($0.directoryStamps.keys) }
        let root = folder ?? ""
        arrivals.withLock { arrivals in
            arrivals.active = true
            arrivals.settle = settle
            arrivals.events = inotify ? try? FolderEvents() : nil
            arrivals.watch(folders, root: root)
        }
    }

    func stopFileEvents() {
        arrivals.withLock { $0 = CardArrivals() }
    }
}
