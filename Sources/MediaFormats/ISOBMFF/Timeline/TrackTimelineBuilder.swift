/// Builds a `TrackTimeline` from a sample table, its edit list and the file's length.
struct TrackTimelineBuilder {
    let table: SampleTable
    /// nil or empty: no edit list (every sample is shown, from the first one on).
    let edits: [EditListEntry]?
    let movieTimescale: UInt32
    /// The media duration from `mdhd` (0 when it does not say).
    let mediaDuration: UInt64
    /// The file's length: samples whose bytes end past it are missing.
    let sourceLength: UInt64
    let trackName: String
    /// True for a video track: its first shown frame starts the timeline (see `TrackTimeline.rebase`).
    var startsAtFirstFrame = false

    func build() throws -> TrackTimeline {
        let complete = completeSampleCount()
        // Composition order of the samples whose bytes exist.
        let order = table.presentationOrder.filter { $0 < complete }
        let ct = { (index: Int) in table.samples[index].compositionTime }
        var frames: [TrackTimeline.Frame] = []
        var duration: Int64?
        var rebase: Int64 = 0

        if let edits, !edits.isEmpty {
            var cursor: Int64 = 0  // where the next edit starts on the timeline, in media units
            var leadingEmpty: Int64?  // the empty edits before the first that shows media
            for (number, edit) in edits.enumerated() {
                var length = MediaTime.rescale(edit.segmentDuration, from: movieTimescale, to: table.timescale)
                if edit.isEmpty {
                    cursor += length
                    continue
                }
                if leadingEmpty == nil { leadingEmpty = cursor }
                guard edit.rate == 0x10000 else {
                    throw MediaFormatError(.editRate(track: trackName, rate: edit.rate))
                }
                // A zero-length last edit means "the rest of the media" (written by fragmenting muxers).
                if length == 0, number == edits.count - 1 {
                    length = max(mediaEnd(order) - edit.mediaTime, 0)
                }
                let start = edit.mediaTime
                let end = start + length
                var position = firstPosition(in: order, atOrAfter: start)
                while position < order.count, ct(order[position]) < end {
                    let sample = order[position]
                    frames.append(.init(sample: sample, time: cursor + ct(sample) - start))
                    position += 1
                }
                cursor += length
            }
            duration = cursor
            // libavformat drops a video frame that straddles the edit's start and moves the track so its
            // first shown frame is at the end of the leading empty edits (mov_fix_index); so do we.
            if startsAtFirstFrame, let first = frames.map(\.time).min(), first > (leadingEmpty ?? 0) {
                rebase = first - (leadingEmpty ?? 0)
                for index in frames.indices { frames[index].time -= rebase }
            }
        } else {
            // Without an edit list, players start at the first frame (mpv rebases its clock there, ffprobe
            // counts its duration from there): B-frame delay before it is not part of the timeline.
            let start = order.first.map(ct) ?? 0
            frames = order.map { .init(sample: $0, time: ct($0) - start) }
            if mediaDuration > 0, mediaDuration < UInt64(Int64.max / 4) {
                duration = Int64(mediaDuration)
            } else if !order.isEmpty {
                duration = mediaEnd(order) - start
            }
        }
        frames.sort { ($0.time, $0.sample) < ($1.time, $1.sample) }

        var truncation: TrackTimeline.Truncation?
        if complete < table.count {
            truncation = .init(
                declaredSamples: table.count, completeSamples: complete,
                declaredDuration: duration.map { Double($0) / Double(table.timescale) })
            // What plays ends with the last complete frame.
            let lastEnd = frames.last.map { $0.time + frameLength($0.sample, order: order) } ?? 0
            duration = min(duration ?? lastEnd, lastEnd)
        }
        let keyframes = frames.indices.filter { table.samples[frames[$0].sample].isKeyframe }
        return TrackTimeline(
            timescale: table.timescale, frames: frames, keyframes: keyframes, duration: duration,
            leadIn: leadIn(for: frames.first), truncation: truncation, rebase: rebase)
    }

    /// How many samples, in decode order, have all their bytes in the file: decoding stops at the first
    /// sample that is cut off, since every later one may depend on it.
    private func completeSampleCount() -> Int {
        for (index, sample) in table.samples.enumerated() {
            let (end, overflow) = sample.offset.addingReportingOverflow(UInt64(sample.size))
            if overflow || end > sourceLength { return index }
        }
        return table.count
    }

    /// The end of the last sample in composition order: its composition time plus its duration.
    private func mediaEnd(_ order: [Int]) -> Int64 {
        guard let last = order.last else { return 0 }
        return table.samples[last].compositionTime + frameLength(last, order: order)
    }

    /// How long sample `index` lasts: its own duration (`stts`, `trun`), up to the next sample's decode time.
    private func frameLength(_ index: Int, order: [Int]) -> Int64 {
        let next = index + 1 < table.count ? table.samples[index + 1].decodeTime : table.duration
        return max(next - table.samples[index].decodeTime, 0)
    }

    /// Binary search: the first position in `order` whose composition time is at or after `time`.
    private func firstPosition(in order: [Int], atOrAfter time: Int64) -> Int {
        var low = 0
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            if table.samples[order[middle]].compositionTime < time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The hidden keyframe the first shown frame decodes from, when that frame is not a keyframe itself.
    private func leadIn(for first: TrackTimeline.Frame?) -> TrackTimeline.LeadIn? {
        guard let first, !table.samples[first.sample].isKeyframe else { return nil }
        var keyframe = first.sample
        while keyframe > 0, !table.samples[keyframe].isKeyframe { keyframe -= 1 }
        guard table.samples[keyframe].isKeyframe else { return nil }
        let gap = table.samples[first.sample].compositionTime - table.samples[keyframe].compositionTime
        return .init(
            keyframeSample: keyframe, hiddenSamples: first.sample - keyframe,
            secondsBefore: Double(max(gap, 0)) / Double(table.timescale))
    }
}
