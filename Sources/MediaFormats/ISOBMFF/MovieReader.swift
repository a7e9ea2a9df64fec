/// Bounds that keep a hostile movie file from costing unbounded memory or time.
public struct MovieReadLimits: Sendable {
    /// The largest movie box read into memory.
    public var maxMovieBoxSize: UInt64 = 256 << 20
    /// The most top-level boxes walked while looking for the movie box.
    public var maxTopLevelBoxes = 4096
    /// The most boxes parsed inside the movie box.
    public var maxBoxes = 100_000
    /// The deepest box nesting accepted inside the movie box.
    public var maxDepth = 16
    /// The most tracks in one movie.
    public var maxTracks = 64
    /// The most samples in one track (over two hours of 240 fps video).
    public var maxSamplesPerTrack = 2_000_000
    /// The most top-level boxes walked after a fragmented movie's `moov` (two per fragment: `moof`, `mdat`).
    public var maxFragmentBoxes = 400_000
    /// The largest movie fragment box (`moof`) read into memory.
    public var maxFragmentBoxSize: UInt64 = 16 << 20
    /// Up to this many fragments, a fragmented movie's fragments are all read even when an index (`sidx`,
    /// `mfra`) says where they are; beyond it the index and the first and last fragments are enough for
    /// a constant-rate video track (see `IndexedFragments`).
    public var eagerFragments = 16

    /// The default bounds, generous for any real camera file.
    public init() {}
}

/// Reads a movie's structure (MP4, MOV, LRF) through random access: it walks the top-level box headers,
/// reads only the movie box, wherever it sits, and never the media data.
public struct MovieReader: Sendable {
    /// The bounds applied while reading.
    public var limits: MovieReadLimits

    /// A reader with the default bounds, or tighter ones.
    public init(limits: MovieReadLimits = MovieReadLimits()) {
        self.limits = limits
    }

    /// Reads the brands, tracks and sample tables of the movie in `source`.
    public func read(from source: some ByteRangeSource) throws -> MovieInfo {
        let length = source.length
        // Headers are small; a 4 KiB read-ahead usually covers `ftyp` and the next box's header at once.
        var window = ReadAheadWindow(source, chunkSize: 4096)
        var offset: UInt64 = 0
        var boxCount = 0
        var brands: (major: FourCC, compatible: [FourCC])?
        var sawMediaData = false

        while length - offset >= 8 {
            boxCount += 1
            guard boxCount <= limits.maxTopLevelBoxes else {
                throw MediaFormatError(.noMovieBoxWithin(boxes: limits.maxTopLevelBoxes), offset: offset)
            }
            let box = try TopLevelBox.read(at: offset, from: &window)
            let (type, size, headerSize, end) = (box.type, box.size, box.headerSize, box.end)
            guard box.fits(in: length) else {
                throw MediaFormatError(
                    .boxPastEndBeforeMovie(box: "\(type)", size: size, fileLength: length),
                    offset: offset)
            }

            switch type {
            case "moov":
                guard size <= limits.maxMovieBoxSize else {
                    throw MediaFormatError(
                        .boxTooLarge(box: "moov", size: size, limit: UInt64(limits.maxMovieBoxSize)),
                        offset: offset)
                }
                let moov = try box.load(from: &window)
                var parser = MovieBoxParser(limits: limits, sourceLength: length)
                var (movie, extends) = try parser.parse(moov, size: size, brands: brands, isFastStart: !sawMediaData)
                if let extends,
                    let indexed = try IndexedFragments(limits: limits, extends: extends).read(movie, moovEnd: end, window: &window)
                {
                    try movie.adoptIndexedFragments(indexed, sourceLength: length)
                    return movie
                }
                if let extends {
                    let walker = FragmentWalker(limits: limits, extends: extends)
                    let found = try walker.walk(from: end, window: &window, decodeTimes: movie.decodeEnds)
                    try movie.appendFragments(found, movieDuration: extends.fragmentDuration)
                }
                movie.buildTimelines(sourceLength: length)
                return movie
            case "ftyp" where brands == nil:
                // Brands are a few bytes; more than 64 of them is not a real file, so read no further.
                let bodySize = Int(min(size - headerSize, 4 + 4 + 64 * 4))
                let body = try window.bytes(at: offset + headerSize, count: bodySize, what: "the 'ftyp' box")
                brands = try Self.parseBrands(body, fileOffset: offset + headerSize)
            case "mdat":
                sawMediaData = true
            default:
                break
            }
            offset = end
        }
        throw MediaFormatError(.noMovieBox(fileLength: length))
    }

    private static func parseBrands(_ body: [UInt8], fileOffset: UInt64) throws -> (FourCC, [FourCC]) {
        var cursor = ByteCursor(body, fileOffset: fileOffset, what: "the 'ftyp' box")
        let major = FourCC(rawValue: try cursor.readUInt32())
        _ = try cursor.readUInt32()  // minor version
        var compatible: [FourCC] = []
        while cursor.remaining >= 4 {
            compatible.append(FourCC(rawValue: try cursor.readUInt32()))
        }
        return (major, compatible)
    }
}
