/// How much to ask the camera for when a read of an open file misses the cache: the bytes asked, and on
/// sequential access a window ahead of them that doubles with each sequential miss (from `initial` to
/// `maximum`), so that a copy costs few, large requests; a read anywhere else (a seek: an EXIF header, a
/// player's jump, a 1 KB read at a 100 MB offset) drops the window and asks for just its bytes, one request.
struct ReadAhead: Sendable, Equatable {
    /// The first window after two reads in a row.
    static let initial = 256 << 10
    /// The largest window (one GetPartialObject): also the kernel's read-ahead for the mount.
    static let maximum = 8 << 20

    /// Where the next read of a sequential reader starts (the end of the last read), nil before any.
    private(set) var nextOffset: UInt64?
    /// The window ahead of the bytes asked; 0 while access is random.
    private(set) var window = 0

    /// A read of `count` bytes at `offset` was served (from the cache or the camera): remembers where the
    /// next sequential one would start.
    mutating func served(offset: UInt64, count: Int) {
        nextOffset = offset + UInt64(count)
    }

    /// The span to ask the camera for, for a read of `count` bytes at `offset` that the cache could not
    /// serve, in a file of `size` bytes: the read itself, grown by the window when the read continues the
    /// last one.
    mutating func span(offset: UInt64, count: Int, size: UInt64) -> (offset: UInt64, count: Int) {
        guard offset < size else { return (offset, 0) }
        if let nextOffset, offset == nextOffset, offset > 0 {
            window = window == 0 ? Self.initial : min(window * 2, Self.maximum)
        } else if offset == 0 && nextOffset == nil {
            // A file read from its start (cp, rsync, a player) is taken as sequential from the first read.
            window = Self.initial
        } else {
            window = 0
        }
        let wanted = UInt64(max(count, window))
        return (offset, Int(min(wanted, size - offset)))
    }
}
