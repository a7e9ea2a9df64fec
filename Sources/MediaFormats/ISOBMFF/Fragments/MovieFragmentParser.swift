/// Turns one movie fragment box (`moof`) into samples for the tracks it carries: the track fragment header
/// (`tfhd`) and its defaults, the decode time it starts at (`tfdt`), and each run of samples (`trun`) with
/// their durations, sizes, flags, composition offsets and where their bytes are.
struct MovieFragmentParser {
    /// The `trex` defaults of the movie.
    let extends: MovieExtends
    /// Where the decode time of each track's next sample is, carried from fragment to fragment for files
    /// without `tfdt`; updated as fragments are read.
    var nextDecodeTime: [UInt32: Int64]
    /// The most samples one track may gather.
    let maxSamples: Int
    /// Tracks with a track fragment that does not say when it starts (no `tfdt`).
    var tracksWithoutDecodeTime: Set<UInt32> = []

    /// The samples of `moof` (whose bytes start at `moofOffset`), appended to `samples` by track ID.
    mutating func parse(
        _ moof: Box, moofOffset: UInt64, depth: Int, budget: inout BoxBudget, into samples: inout [UInt32: [Sample]]
    ) throws {
        // Without a base offset, the first track fragment's data starts at the moof, and each later one's
        // where the previous ended (8.8.7.1).
        var previousDataEnd = moofOffset
        for traf in try moof.children(depth: depth, budget: &budget) where traf.type == "traf" {
            let children = try traf.children(depth: depth + 1, budget: &budget)
            let header = try TrackFragmentHeader(
                children.require("tfhd", in: "a track fragment"), extends: extends, moofOffset: moofOffset,
                previousDataEnd: previousDataEnd)
            var decodeTime = nextDecodeTime[header.trackID] ?? 0
            if let tfdt = children.first("tfdt") {
                var (version, _, cursor) = try tfdt.fullBoxPayload()
                let time = version == 1 ? try cursor.readUInt64() : UInt64(try cursor.readUInt32())
                guard time < UInt64(Int64.max / 4) else {
                    throw MediaFormatError(.invalidField(box: "tfdt", field: "decode time", value: Int64(truncatingIfNeeded: time)), offset: tfdt.fileOffset)
                }
                decodeTime = Int64(time)
            } else {
                tracksWithoutDecodeTime.insert(header.trackID)
            }
            var dataPosition = header.baseDataOffset
            var trackSamples = samples[header.trackID] ?? []
            for trun in children where trun.type == "trun" {
                try parseRun(
                    trun, header: header, decodeTime: &decodeTime, dataPosition: &dataPosition, into: &trackSamples)
            }
            samples[header.trackID] = trackSamples
            nextDecodeTime[header.trackID] = decodeTime
            previousDataEnd = dataPosition
        }
    }

    private func parseRun(
        _ trun: Box, header: TrackFragmentHeader, decodeTime: inout Int64, dataPosition: inout UInt64,
        into samples: inout [Sample]
    ) throws {
        var (version, flags, cursor) = try trun.fullBoxPayload()
        let count = try cursor.readUInt32()
        if flags & 0x1 != 0 {
            let offset = Int64(try cursor.readInt32())
            let (position, overflow) = Int64(clamping: header.baseDataOffset).addingReportingOverflow(offset)
            guard !overflow, position >= 0 else {
                throw MediaFormatError(.trackRunBeforeFile, offset: trun.fileOffset)
            }
            dataPosition = UInt64(position)
        }
        let firstFlags: UInt32? = flags & 0x4 != 0 ? try cursor.readUInt32() : nil
        let fields = [0x100, 0x200, 0x400, 0x800].filter { flags & $0 != 0 }.count
        try cursor.requireEntries(UInt64(count), of: fields * 4, "samples")
        guard samples.count + Int(count) <= maxSamples else {
            throw MediaFormatError(.tooMany(.samples, count: nil, limit: maxSamples), offset: trun.fileOffset)
        }
        samples.reserveCapacity(samples.count + Int(count))
        for index in 0..<count {
            let duration = flags & 0x100 != 0 ? try cursor.readUInt32() : header.defaultDuration
            let size = flags & 0x200 != 0 ? try cursor.readUInt32() : header.defaultSize
            var sampleFlags = flags & 0x400 != 0 ? try cursor.readUInt32() : header.defaultFlags
            if index == 0, let firstFlags { sampleFlags = firstFlags }
            var composition: Int64 = 0
            if flags & 0x800 != 0 {
                let raw = try cursor.readUInt32()
                composition = version == 0 ? Int64(raw) : Int64(Int32(bitPattern: raw))
            }
            let (end, overflow) = dataPosition.addingReportingOverflow(UInt64(size))
            guard !overflow else {
                throw MediaFormatError(.trackRunImpossibleOffset, offset: trun.fileOffset)
            }
            let compositionTime = decodeTime + composition
            samples.append(
                Sample(
                    decodeTime: decodeTime, compositionTime: compositionTime, presentationTime: compositionTime,
                    offset: dataPosition, size: size, isKeyframe: SampleFlags.isSync(sampleFlags)))
            decodeTime += Int64(duration)
            dataPosition = end
        }
    }
}

/// `tfhd`: which track a fragment belongs to, where its data is counted from, and defaults that override
/// the movie's `trex`.
struct TrackFragmentHeader {
    var trackID: UInt32
    var baseDataOffset: UInt64
    var defaultDuration: UInt32
    var defaultSize: UInt32
    var defaultFlags: UInt32

    init(_ box: Box, extends: MovieExtends, moofOffset: UInt64, previousDataEnd: UInt64) throws {
        var (_, flags, cursor) = try box.fullBoxPayload()
        trackID = try cursor.readUInt32()
        let defaults = extends.defaults[trackID] ?? .init(duration: 0, size: 0, flags: 0)
        if flags & 0x1 != 0 {
            baseDataOffset = try cursor.readUInt64()
        } else {
            baseDataOffset = flags & 0x2_0000 != 0 ? moofOffset : previousDataEnd
        }
        if flags & 0x2 != 0 { _ = try cursor.readUInt32() }  // sample description index
        defaultDuration = flags & 0x8 != 0 ? try cursor.readUInt32() : defaults.duration
        defaultSize = flags & 0x10 != 0 ? try cursor.readUInt32() : defaults.size
        defaultFlags = flags & 0x20 != 0 ? try cursor.readUInt32() : defaults.flags
    }
}
