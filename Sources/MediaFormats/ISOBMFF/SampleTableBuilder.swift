/// Combines a track's raw tables into one `Sample` per sample: times from `stts`/`ctts` and the edit list,
/// sizes from `stsz`, file offsets from `stsc` and `stco`, keyframes from `stss`. Every table is checked to
/// describe at least as many samples as `stsz` declares before the samples are allocated.
struct SampleTableBuilder {
    let tables: RawSampleTables
    let timescale: UInt32
    /// Subtracted from composition times to give presentation times (see the edit list).
    let presentationShift: Int64
    let sourceLength: UInt64
    let trackName: String

    func build() throws -> SampleTable {
        let count = tables.sampleCount
        guard count > 0 else {
            return SampleTable(timescale: timescale, samples: [], duration: 0, typicalSampleDuration: 0)
        }
        try checkCoverage(count)

        var isSync = [Bool](repeating: tables.syncSamples == nil, count: count)
        for number in tables.syncSamples ?? [] {
            guard number >= 1, Int(number) <= count else {
                throw malformed(.syncSampleOutOfRange(number: number, count: count))
            }
            isSync[Int(number) - 1] = true
        }

        var samples: [Sample] = []
        samples.reserveCapacity(count)
        var durations = tables.durations.makeIterator()
        var currentDuration = RawSampleTables.DurationRun(count: 0, duration: 0)
        var offsets = (tables.compositionOffsets ?? []).makeIterator()
        var currentOffset = RawSampleTables.CompositionRun(count: 0, offset: 0)
        var decodeTime: Int64 = 0
        var durationTally: [UInt32: Int] = [:]

        chunkLoop: for (runIndex, run) in tables.chunkRuns.enumerated() {
            let nextRunStart = runIndex + 1 < tables.chunkRuns.count
                ? Int(tables.chunkRuns[runIndex + 1].firstChunk) : Int.max
            let lastChunk = min(nextRunStart - 1, tables.chunkOffsets.count)
            guard Int(run.firstChunk) <= lastChunk else { continue }
            for chunk in Int(run.firstChunk)...lastChunk {
                var position = tables.chunkOffsets[chunk - 1]
                for _ in 0..<run.samplesPerChunk {
                    let index = samples.count
                    if index == count { break chunkLoop }
                    let size = sampleSize(index)
                    // Offsets past the end are kept (a partly copied file still describes itself);
                    // readers of sample data meet the end there. Only arithmetic overflow is refused.
                    let (end, overflow) = position.addingReportingOverflow(UInt64(size))
                    guard !overflow else {
                        throw malformed(.impossibleSampleOffset(sample: index + 1, position: position))
                    }

                    while currentDuration.count == 0 {
                        currentDuration = durations.next()!  // checkCoverage guarantees enough
                    }
                    currentDuration.count -= 1
                    var compositionOffset: Int64 = 0
                    if tables.compositionOffsets != nil {
                        while currentOffset.count == 0 { currentOffset = offsets.next()! }
                        currentOffset.count -= 1
                        compositionOffset = Int64(currentOffset.offset)
                    }
                    let compositionTime = decodeTime + compositionOffset
                    samples.append(
                        Sample(
                            decodeTime: decodeTime, compositionTime: compositionTime,
                            presentationTime: compositionTime - presentationShift,
                            offset: position, size: size, isKeyframe: isSync[index]))
                    decodeTime += Int64(currentDuration.duration)
                    durationTally[currentDuration.duration, default: 0] += 1
                    position = end
                }
            }
        }
        let typical = durationTally.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? 0
        return SampleTable(
            timescale: timescale, samples: samples, duration: decodeTime, typicalSampleDuration: Int64(typical))
    }

    /// Checks that the duration, composition and chunk tables each cover `count` samples, so the loop in
    /// `build` never runs out of entries, and that the chunk table only names chunks that exist.
    private func checkCoverage(_ count: Int) throws {
        let target = UInt64(count)
        if case .constant(let size) = tables.sizes {
            // Nothing in the size box backs the count, so the samples must at least fit in the file.
            let (total, overflow) = UInt64(size).multipliedReportingOverflow(by: target)
            guard !overflow, total <= sourceLength else {
                throw malformed(.samplesLargerThanFile(count: count, size: UInt64(size), fileLength: sourceLength))
            }
        }
        let timed = tables.durations.reduce(UInt64(0)) { $0 + UInt64($1.count) }
        guard timed >= target else {
            throw malformed(.durationCount(timed: timed, count: count))
        }
        if let composition = tables.compositionOffsets {
            let covered = composition.reduce(UInt64(0)) { $0 + UInt64($1.count) }
            guard covered >= target else {
                throw malformed(.compositionOffsetCount(covered: covered, count: count))
            }
        }
        let chunkCount = tables.chunkOffsets.count
        guard let first = tables.chunkRuns.first, first.firstChunk == 1 else {
            throw malformed(.chunkTableNotFromFirst)
        }
        var placed: UInt64 = 0
        for (index, run) in tables.chunkRuns.enumerated() {
            guard Int(run.firstChunk) <= chunkCount else {
                throw malformed(.chunkOutOfRange(chunk: run.firstChunk, count: chunkCount))
            }
            let nextRunStart = index + 1 < tables.chunkRuns.count
                ? UInt64(tables.chunkRuns[index + 1].firstChunk) : UInt64.max
            let chunks = min(nextRunStart, UInt64(chunkCount) + 1) - UInt64(run.firstChunk)
            let (inRun, overflow) = chunks.multipliedReportingOverflow(by: UInt64(run.samplesPerChunk))
            let (sum, sumOverflow) = placed.addingReportingOverflow(inRun)
            placed = overflow || sumOverflow ? target : sum
            if placed >= target { return }
        }
        throw malformed(.chunkedCount(placed: placed, count: count))
    }

    private func sampleSize(_ index: Int) -> UInt32 {
        switch tables.sizes {
        case .constant(let size): size
        case .perSample(let sizes): sizes[index]
        }
    }

    private func malformed(_ defect: MediaFormatError.SampleTableDefect) -> MediaFormatError {
        MediaFormatError(.sampleTable(track: trackName, defect))
    }
}
