/// The sample tables of one track as stored in `stbl`, checked for size but not yet combined: every entry
/// count has been checked against the bytes of its box before anything was allocated.
struct RawSampleTables {
    /// `stts`: runs of samples with the same duration.
    struct DurationRun {
        var count: UInt32
        var duration: UInt32
    }

    /// `ctts`: runs of samples with the same composition offset.
    struct CompositionRun {
        var count: UInt32
        var offset: Int32
    }

    /// `stsc`: from `firstChunk` (1-based) on, each chunk holds `samplesPerChunk` samples.
    struct ChunkRun {
        var firstChunk: UInt32
        var samplesPerChunk: UInt32
    }

    /// `stsz`/`stz2`: one size for all samples, or one per sample.
    enum Sizes {
        case constant(UInt32)
        case perSample([UInt32])
    }

    var durations: [DurationRun]
    var compositionOffsets: [CompositionRun]?
    var sizes: Sizes
    var sampleCount: Int
    var chunkRuns: [ChunkRun]
    var chunkOffsets: [UInt64]
    /// `stss`: 1-based numbers of the sync samples; nil when the box is absent (every sample is sync).
    var syncSamples: [UInt32]?

    init(_ stbl: [Box], trackName: String, maxSamples: Int) throws {
        let place = "the sample table of \(trackName)"
        durations = try Self.parseDurations(stbl.require("stts", in: place))
        compositionOffsets = try stbl.first("ctts").map(Self.parseCompositionOffsets)
        if let stsz = stbl.first("stsz") {
            (sizes, sampleCount) = try Self.parseSizes(stsz, maxSamples: maxSamples)
        } else if let stz2 = stbl.first("stz2") {
            (sizes, sampleCount) = try Self.parseCompactSizes(stz2, maxSamples: maxSamples)
        } else {
            throw MediaFormatError(.missingBox(types: ["stsz", "stz2"], in: place))
        }
        chunkRuns = try Self.parseChunkRuns(stbl.require("stsc", in: place))
        if let stco = stbl.first("stco") {
            chunkOffsets = try Self.parseChunkOffsets(stco, wide: false)
        } else if let co64 = stbl.first("co64") {
            chunkOffsets = try Self.parseChunkOffsets(co64, wide: true)
        } else {
            throw MediaFormatError(.missingBox(types: ["stco", "co64"], in: place))
        }
        syncSamples = try stbl.first("stss").map(Self.parseSyncSamples)
    }

    /// Reads a FullBox's 32-bit entry count and checks the entries fit in the box.
    private static func entries(_ box: Box, size: Int, _ name: String) throws -> (UInt32, ByteCursor) {
        var (_, _, cursor) = try box.fullBoxPayload()
        let count = try cursor.readUInt32()
        try cursor.requireEntries(UInt64(count), of: size, name)
        return (count, cursor)
    }

    private static func parseDurations(_ box: Box) throws -> [DurationRun] {
        var (count, cursor) = try entries(box, size: 8, "time-to-sample entries")
        var runs: [DurationRun] = []
        runs.reserveCapacity(Int(count))
        for _ in 0..<count {
            runs.append(DurationRun(count: try cursor.readUInt32(), duration: try cursor.readUInt32()))
        }
        return runs
    }

    private static func parseCompositionOffsets(_ box: Box) throws -> [CompositionRun] {
        var (count, cursor) = try entries(box, size: 8, "composition offset entries")
        var runs: [CompositionRun] = []
        runs.reserveCapacity(Int(count))
        for _ in 0..<count {
            // Version 0 declares the offset unsigned, but writers store negative offsets there too.
            runs.append(CompositionRun(count: try cursor.readUInt32(), offset: try cursor.readInt32()))
        }
        return runs
    }

    private static func checkSampleCount(_ count: UInt32, maxSamples: Int, _ box: Box) throws {
        guard Int(count) <= maxSamples else {
            throw MediaFormatError(
                .tooMany(.samples, count: UInt64(count), limit: maxSamples),
                offset: box.fileOffset)
        }
    }

    private static func parseSizes(_ box: Box, maxSamples: Int) throws -> (Sizes, Int) {
        var (_, _, cursor) = try box.fullBoxPayload()
        let constantSize = try cursor.readUInt32()
        let count = try cursor.readUInt32()
        try checkSampleCount(count, maxSamples: maxSamples, box)
        if constantSize != 0 { return (.constant(constantSize), Int(count)) }
        try cursor.requireEntries(UInt64(count), of: 4, "sample sizes")
        var sizes: [UInt32] = []
        sizes.reserveCapacity(Int(count))
        for _ in 0..<count { sizes.append(try cursor.readUInt32()) }
        return (.perSample(sizes), Int(count))
    }

    private static func parseCompactSizes(_ box: Box, maxSamples: Int) throws -> (Sizes, Int) {
        var (_, _, cursor) = try box.fullBoxPayload()
        try cursor.skip(3)
        let fieldBits = try cursor.readUInt8()
        let count = try cursor.readUInt32()
        guard fieldBits == 4 || fieldBits == 8 || fieldBits == 16 else {
            throw MediaFormatError(.invalidField(box: "stz2", field: "field size", value: Int64(fieldBits)), offset: box.fileOffset)
        }
        try checkSampleCount(count, maxSamples: maxSamples, box)
        let byteCount = (UInt64(count) * UInt64(fieldBits) + 7) / 8
        try cursor.requireEntries(byteCount, of: 1, "bytes of sample sizes")
        var sizes: [UInt32] = []
        sizes.reserveCapacity(Int(count))
        var index: UInt32 = 0
        while index < count {
            switch fieldBits {
            case 4:
                let byte = try cursor.readUInt8()
                sizes.append(UInt32(byte >> 4))
                if index + 1 < count { sizes.append(UInt32(byte & 0x0F)) }
                index += 2
            case 8:
                sizes.append(UInt32(try cursor.readUInt8()))
                index += 1
            default:
                sizes.append(UInt32(try cursor.readUInt16()))
                index += 1
            }
        }
        return (.perSample(sizes), Int(count))
    }

    private static func parseChunkRuns(_ box: Box) throws -> [ChunkRun] {
        var (count, cursor) = try entries(box, size: 12, "sample-to-chunk entries")
        var runs: [ChunkRun] = []
        runs.reserveCapacity(Int(count))
        for _ in 0..<count {
            let first = try cursor.readUInt32()
            let perChunk = try cursor.readUInt32()
            _ = try cursor.readUInt32()  // sample description index
            guard first > (runs.last?.firstChunk ?? 0) else {
                throw MediaFormatError(.chunkTableGoesBack(atChunk: first), offset: box.fileOffset)
            }
            runs.append(ChunkRun(firstChunk: first, samplesPerChunk: perChunk))
        }
        return runs
    }

    private static func parseChunkOffsets(_ box: Box, wide: Bool) throws -> [UInt64] {
        var (count, cursor) = try entries(box, size: wide ? 8 : 4, "chunk offsets")
        var offsets: [UInt64] = []
        offsets.reserveCapacity(Int(count))
        for _ in 0..<count {
            offsets.append(wide ? try cursor.readUInt64() : UInt64(try cursor.readUInt32()))
        }
        return offsets
    }

    private static func parseSyncSamples(_ box: Box) throws -> [UInt32] {
        var (count, cursor) = try entries(box, size: 4, "sync samples")
        var numbers: [UInt32] = []
        numbers.reserveCapacity(Int(count))
        for _ in 0..<count { numbers.append(try cursor.readUInt32()) }
        return numbers
    }
}
