/// Reads the movie fragments (`moof`) that follow a fragmented movie's `moov` (`-movflags frag_keyframe`,
/// cameras that must survive a power cut, DASH segments): walks the top-level boxes from the end of the
/// movie box, reads each `moof` (small: the media data boxes between them are skipped, never read) and
/// gathers its samples by track. One read per fragment through the read-ahead window; a box cut off by the
/// end of the file ends the walk (a recording that stopped mid-fragment keeps what it has).
struct FragmentWalker {
    let limits: MovieReadLimits
    let extends: MovieExtends

    /// What the walk found.
    struct Result {
        /// Samples by track ID, in decode order.
        var samples: [UInt32: [Sample]] = [:]
        /// Per track ID, the decode time just after its last fragment sample (the end of its media).
        var decodeEnds: [UInt32: Int64] = [:]
        /// Movie fragments read.
        var fragmentCount = 0
        /// True when a box ran past the end of the file.
        var endsInsideABox = false
    }

    /// Walks from `start` to the end of the file. `decodeTimes` gives, per track, where its fragment samples
    /// start when a fragment has no `tfdt` (after the samples of the movie box).
    func walk<Source>(
        from start: UInt64, window: inout ReadAheadWindow<Source>, decodeTimes: [UInt32: Int64]
    ) throws -> Result {
        let length = window.source.length
        var result = Result()
        var parser = MovieFragmentParser(extends: extends, nextDecodeTime: decodeTimes, maxSamples: limits.maxSamplesPerTrack)
        var budget = BoxBudget(maxBoxes: limits.maxBoxes, maxDepth: limits.maxDepth)
        var offset = start
        var boxes = 0
        while length - offset >= 8 {
            boxes += 1
            guard boxes <= limits.maxFragmentBoxes else {
                throw MediaFormatError(.tooMany(.boxesAfterMovie, count: nil, limit: limits.maxFragmentBoxes), offset: offset)
            }
            let box = try TopLevelBox.read(at: offset, from: &window)
            guard box.fits(in: length) else {
                result.endsInsideABox = true
                break
            }
            switch box.type {
            case "moof":
                guard box.size <= limits.maxFragmentBoxSize else {
                    throw MediaFormatError(
                        .boxTooLarge(box: "moof", size: box.size, limit: UInt64(limits.maxFragmentBoxSize)), offset: offset)
                }
                let moof = try box.load(from: &window)
                // Each fragment gets its own box budget: the total is bounded by the box count above.
                budget = BoxBudget(maxBoxes: limits.maxBoxes, maxDepth: limits.maxDepth)
                try parser.parse(moof, moofOffset: offset, depth: 1, budget: &budget, into: &result.samples)
                result.fragmentCount += 1
            case "mfra":
                offset = length  // the random-access index closes the file
                continue
            default:
                break
            }
            offset = box.end
        }
        result.decodeEnds = parser.nextDecodeTime
        return result
    }
}
