/// How much to ask the camera for when a read of an open file misses the cache: the bytes asked, and on
/// sequential access a window ahead of them that doubles with each sequential miss (from `initial` to
/// `maximum`), so that a copy costs few, large requests; a read anywhere else (a seek: an EXIF header, a
/// player's jump, a 1 KB read at a 100 MB offset) drops the window and asks for just its bytes, one request.
/// While access stays sequential, the next window is asked for in the background as soon as less than one
/// window of fetched bytes is left ahead of the reader (`background`), so the camera sends the next bytes
/// while the kernel takes the ones it has: the link is never idle during a copy.
struct ReadAhead: Sendable, Equatable {
    /// The first window after two reads in a row.
    static let initial = 256 << 10
    /// The largest window (one GetPartialObject): also the kernel's read-ahead for the mount.
    static let maximum = 8 << 20

    /// How far from the end of the reads so far a read still counts as sequential: the kernel sends a
    /// sequential reader's reads several at once (256 KiB each), and they arrive in any order.
    static let slack: UInt64 = 2 << 20

    /// The furthest end of the reads that went on from each other (the next sequential read starts about
    /// there); nil before any read.
    private(set) var frontier: UInt64?
    /// The window ahead of the bytes asked; 0 while access is random.
    private(set) var window = 0
    /// The end of the bytes fetched for the sequential run (where the next background fetch starts); nil
    /// while access is random or after a fetch failed.
    private(set) var fetchedEnd: UInt64?

    private func continues(_ offset: UInt64) -> Bool {
        guard let frontier else { return false }
        return offset + Self.slack >= frontier && offset <= frontier + Self.slack
    }

    /// A read of `count` bytes at `offset` was served (from the cache or the camera): one that went on from
    /// the reads before moves their end on; one elsewhere starts a new run there.
    mutating func served(offset: UInt64, count: Int) {
        let end = offset + UInt64(count)
        frontier = continues(offset) ? max(frontier ?? 0, end) : end
    }

    /// The span to ask the camera for, for a read of `count` bytes at `offset` that the cache could not
    /// serve, in a file of `size` bytes: the read itself, grown by the window when the read continues the
    /// reads before it.
    mutating func span(offset: UInt64, count: Int, size: UInt64) -> (offset: UInt64, count: Int) {
        guard offset < size else { return (offset, 0) }
        if continues(offset) && !(offset == 0 && frontier == 0) {
            window = window == 0 ? Self.initial : min(window * 2, Self.maximum)
        } else if offset == 0 && frontier == nil {
            // A file read from its start (cp, rsync, a player) is taken as sequential from the first read.
            window = Self.initial
        } else {
            window = 0
        }
        let wanted = UInt64(max(count, window))
        return (offset, Int(min(wanted, size - offset)))
    }

    /// A fetch for this file ended with `count` bytes from `offset` (`count` 0: it failed): on sequential
    /// access, the background fetches go on from its end.
    mutating func fetched(offset: UInt64, count: Int) {
        fetchedEnd = window > 0 && count > 0 ? offset + UInt64(count) : nil
    }

    /// The span to fetch in the background now, in a file of `size` bytes, or nil: only on sequential
    /// access, once the reader is within one window of the end of what was fetched (so at most about two
    /// windows of a file are held ahead of its reader), up to the file's end. The window grows as it does
    /// on a sequential miss.
    mutating func background(size: UInt64) -> (offset: UInt64, count: Int)? {
        guard window > 0, let frontier, let end = fetchedEnd, end < size, frontier <= end,
            end - frontier <= UInt64(window)
        else { return nil }
        window = min(window * 2, Self.maximum)
        return (end, Int(min(UInt64(window), size - end)))
    }
}
