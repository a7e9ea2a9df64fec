#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What inotify says of the files in a set of folders (not recursive: each folder is added), read without
/// blocking; `descriptor` can be polled for more. Says when a file is written, and when its writer closed
/// it, so that a watcher can tell a file still being copied from a whole one.
public final class FolderEvents: Sendable {
    /// One thing that happened to a name in a watched folder.
    public struct Event: Sendable, Equatable {
        /// The watch (`add`) of the folder it happened in; -1 for the queue itself (`overflowed`).
        public var watch: Int32
        /// The name in that folder; empty for the folder itself.
        public var name: String
        public var kinds: Kinds
        public var isFolder: Bool
    }

    public struct Kinds: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Made there (a file opened with O_CREAT, a folder, a link).
        public static let created = Kinds(rawValue: UInt32(IN_CREATE))
        /// Written to.
        public static let modified = Kinds(rawValue: UInt32(IN_MODIFY))
        /// A file opened for writing was closed: the writer is done with it.
        public static let closedAfterWriting = Kinds(rawValue: UInt32(IN_CLOSE_WRITE))
        /// Renamed into the folder: whole, as the rename made it appear at once.
        public static let movedIn = Kinds(rawValue: UInt32(IN_MOVED_TO))
        public static let movedOut = Kinds(rawValue: UInt32(IN_MOVED_FROM))
        public static let deleted = Kinds(rawValue: UInt32(IN_DELETE))
        /// The watched folder itself went away or was renamed: its watch says nothing more.
        public static let folderGone = Kinds(rawValue: UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT))
        /// The kernel's queue was full and events were lost: what was known must be found out again.
        public static let overflowed = Kinds(rawValue: UInt32(IN_Q_OVERFLOW))
    }

    private let fd: Int32

    public init() throws(SystemError) {
        fd = try systemCall("inotify_init1") { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
    }

    deinit { _ = close(fd) }

    /// Polled readable when events wait to be read.
    public var descriptor: Int32 { fd }

    /// Starts watching the folder at `path` (a symlink is not followed); returns the watch, which the events
    /// in it carry. Adding a folder already watched returns its watch again.
    public func add(folder path: String) throws(SystemError) -> Int32 {
        let mask = IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF
            | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW
        return try systemCall("inotify_add_watch", path: path) { inotify_add_watch(fd, path, UInt32(mask)) }
    }

    /// Stops watching a folder (one that went away has stopped already: that is fine).
    public func remove(_ watch: Int32) {
        _ = inotify_rm_watch(fd, watch)
    }

    /// The events waiting, in the order they happened; empty when there are none.
    public func take() -> [Event] {
        var events: [Event] = []
        let size = 64 << 10
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            // Nothing waiting (EAGAIN: the descriptor does not block) ends the events as an error does.
            guard let count = try? systemCall(.read, { read(fd, buffer.baseAddress, size) }), count > 0 else { return events }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let base = buffer.baseAddress! + offset
                let watch = base.loadUnaligned(fromByteOffset: 0, as: Int32.self)
                let mask = base.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
                let length = Int(base.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
                let nameBytes = UnsafeRawBufferPointer(start: base + header, count: min(length, count - offset - header))
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                events.append(Event(
                    watch: watch, name: name, kinds: Kinds(rawValue: mask & ~UInt32(IN_ISDIR)),
                    isFolder: mask & UInt32(IN_ISDIR) != 0))
                offset += header + length
            }
        }
    }
}
