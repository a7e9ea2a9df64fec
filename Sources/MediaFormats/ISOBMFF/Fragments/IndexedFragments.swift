/// Reads a long fragmented movie from its index instead of walking every fragment: the index (`sidx` after
/// the movie box, else `mfra` at the end of the file) says where each fragment is and when its keyframe is
/// shown, and the first and the last fragment's headers give the frame duration and where the media ends.
/// A few reads, whatever the recording's length (a two-hour clip has thousands of fragments; a camera link
/// pays a round trip per read).
///
/// The video track's frames are then known without reading the fragments in between only when the track is
/// on a constant frame grid: every sample of the two fragments read lasts the same, their times and every
/// indexed keyframe sit on that grid, the index lists each keyframe of the fragments read, and the last
/// fragment's data ends where the index says the fragments end. Anything else (variable frame rate, an
/// edit list, a truncated file, an index that disagrees) returns nil, and every fragment is walked instead.
struct IndexedFragments {
    let limits: MovieReadLimits
    let extends: MovieExtends

    /// What was read.
    struct Result {
        /// The video track's timeline on its frame grid.
        var timeline: TrackTimeline
        /// The video track's ID.
        var trackID: UInt32
        /// The samples of the first fragment, by track ID (decode order).
        var firstFragment: [UInt32: [Sample]]
        /// Fragments the index lists.
        var fragmentCount: Int
    }

    /// Reads the index and the first and last fragments of `movie`, whose movie box ends at `moovEnd`.
    func read<Source>(_ movie: MovieInfo, moovEnd: UInt64, window: inout ReadAheadWindow<Source>) throws -> Result? {
        guard let video = movie.videoTrack, video.sampleTable.count == 0, video.editList?.isEmpty ?? true else {
            return nil
        }
        guard let (index, fragmentsEnd) = try findIndex(video: video, moovEnd: moovEnd, window: &window) else { return nil }
        let offsets = index.fragmentOffsets
        guard offsets.count > limits.eagerFragments,
            zip(offsets, offsets.dropFirst()).allSatisfy({ $0 < $1 }), offsets[0] >= moovEnd
        else { return nil }

        guard let first = try fragment(at: offsets[0], requireDecodeTime: false, window: &window),
            let last = try fragment(at: offsets[offsets.count - 1], requireDecodeTime: true, window: &window),
            last.dataEnd == fragmentsEnd,
            let firstSamples = first.samples[video.id], let lastSamples = last.samples[video.id],
            let lastEnd = last.decodeEnds[video.id]
        else { return nil }
        let grid = FrameGrid(
            first: firstSamples, last: lastSamples, lastDecodeEnd: lastEnd, index: index, maxFrames: limits.maxSamplesPerTrack)
        guard let timeline = grid?.timeline(timescale: video.sampleTable.timescale) else { return nil }
        return Result(timeline: timeline, trackID: video.id, firstFragment: first.samples, fragmentCount: offsets.count)
    }

    /// The index and where the fragments it lists end, or nil when the file has no index this reader uses.
    private func findIndex<Source>(
        video: TrackInfo, moovEnd: UInt64, window: inout ReadAheadWindow<Source>
    ) throws -> (FragmentIndex, UInt64)? {
        let length = window.source.length
        // A global `sidx` sits right after the movie box.
        if length - moovEnd >= 8 {
            let box = try TopLevelBox.read(at: moovEnd, from: &window)
            if box.type == "sidx", box.fits(in: length), box.size <= limits.maxFragmentBoxSize,
                let index = try FragmentIndex.segmentIndex(
                    try box.load(from: &window), sidxEnd: box.end, trackID: video.id,
                    trackTimescale: video.sampleTable.timescale),
                let end = index.indexedEnd, try endsTheMedia(end, window: &window)
            {
                return (index, end)
            }
        }
        // Else the random access box at the end, whose size the last 16 bytes (`mfro`) give.
        guard length - moovEnd >= 32 else { return nil }
        var tail = ByteCursor(
            try window.bytes(at: length - 16, count: 16, what: "the 'mfro' box"), fileOffset: length - 16, what: "the 'mfro' box")
        guard try tail.readUInt32() == 16, try tail.readUInt32() == (FourCC("mfro") as FourCC).rawValue else { return nil }
        _ = try tail.readUInt32()  // version and flags
        let size = UInt64(try tail.readUInt32())
        guard size >= 24, size <= length - moovEnd, size <= limits.maxFragmentBoxSize else { return nil }
        let box = try TopLevelBox.read(at: length - size, from: &window)
        guard box.type == "mfra", box.size == size else { return nil }
        var budget = BoxBudget(maxBoxes: limits.maxBoxes, maxDepth: limits.maxDepth)
        guard let index = try FragmentIndex.randomAccess(try box.load(from: &window), trackID: video.id, budget: &budget)
        else { return nil }
        return (index, box.offset)
    }

    /// True when the media ends at `end`: the file ends there, or the random access box that closes it starts there.
    private func endsTheMedia<Source>(_ end: UInt64, window: inout ReadAheadWindow<Source>) throws -> Bool {
        let length = window.source.length
        if end == length { return true }
        guard end < length, length - end >= 8 else { return false }
        let box = try TopLevelBox.read(at: end, from: &window)
        return box.type == "mfra" && box.end == length
    }

    /// One fragment read on its own.
    private struct Fragment {
        var samples: [UInt32: [Sample]]
        var decodeEnds: [UInt32: Int64]
        /// Where the media data box after the `moof` ends.
        var dataEnd: UInt64
    }

    /// The `moof` at `offset` and the `mdat` after it, or nil when they are not there whole (or, with
    /// `requireDecodeTime`, when a track fragment does not say when it starts).
    private func fragment<Source>(
        at offset: UInt64, requireDecodeTime: Bool, window: inout ReadAheadWindow<Source>
    ) throws -> Fragment? {
        let length = window.source.length
        guard offset < length, length - offset >= 8 else { return nil }
        let box = try TopLevelBox.read(at: offset, from: &window)
        guard box.type == "moof", box.fits(in: length), box.size <= limits.maxFragmentBoxSize else { return nil }
        let moof = try box.load(from: &window)
        guard length - box.end >= 8 else { return nil }
        let data = try TopLevelBox.read(at: box.end, from: &window)
        guard data.type == "mdat", data.fits(in: length) else { return nil }
        var parser = MovieFragmentParser(extends: extends, nextDecodeTime: [:], maxSamples: limits.maxSamplesPerTrack)
        var budget = BoxBudget(maxBoxes: limits.maxBoxes, maxDepth: limits.maxDepth)
        var samples: [UInt32: [Sample]] = [:]
        try parser.parse(moof, moofOffset: offset, depth: 1, budget: &budget, into: &samples)
        if requireDecodeTime, !parser.tracksWithoutDecodeTime.isEmpty { return nil }
        let inside = samples.values.joined().allSatisfy { $0.offset >= data.offset && $0.offset + UInt64($0.size) <= data.end }
        return inside ? Fragment(samples: samples, decodeEnds: parser.nextDecodeTime, dataEnd: data.end) : nil
    }
}
