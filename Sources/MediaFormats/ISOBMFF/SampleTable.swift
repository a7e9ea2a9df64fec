/// One sample (a video frame or an audio packet) of a track: when it is decoded and shown, and where its
/// bytes are in the file.
public struct Sample: Sendable, Equatable {
    /// Decode time, in the track's timescale units.
    public var decodeTime: Int64
    /// Composition time (decode time plus the `ctts` offset), in timescale units.
    public var compositionTime: Int64
    /// When the sample is shown on the track's timeline once the edit list is applied, in timescale units.
    /// This is the time players and ffprobe report as "pts".
    public var presentationTime: Int64
    /// Where the sample's bytes start in the file.
    public var offset: UInt64
    /// The sample's size in bytes.
    public var size: UInt32
    /// A sync sample: decoding can start here (a keyframe, for video).
    public var isKeyframe: Bool

    public init(
        decodeTime: Int64, compositionTime: Int64, presentationTime: Int64, offset: UInt64, size: UInt32,
        isKeyframe: Bool
    ) {
        self.decodeTime = decodeTime
        self.compositionTime = compositionTime
        self.presentationTime = presentationTime
        self.offset = offset
        self.size = size
        self.isKeyframe = isKeyframe
    }
}

/// Every sample of one track in decode order, with lookups by time for seeking and stepping.
public struct SampleTable: Sendable {
    /// Units per second of every time in this table.
    public let timescale: UInt32
    /// The samples in decode (file table) order.
    public let samples: [Sample]
    /// The sum of all sample durations, in timescale units.
    public let duration: Int64
    /// The most common sample duration, in timescale units (one frame, for constant-rate video).
    public let typicalSampleDuration: Int64
    /// Sample indices sorted by presentation time (differs from decode order when there are B-frames).
    public let presentationOrder: [Int]
    /// Indices of the keyframes, sorted by presentation time.
    public let keyframeIndices: [Int]

    /// A table from samples in decode order; `duration` and `typicalSampleDuration` are in timescale units.
    public init(timescale: UInt32, samples: [Sample], duration: Int64, typicalSampleDuration: Int64) {
        self.timescale = max(timescale, 1)
        self.samples = samples
        self.duration = duration
        self.typicalSampleDuration = typicalSampleDuration
        let order = samples.indices.sorted {
            (samples[$0].presentationTime, $0) < (samples[$1].presentationTime, $1)
        }
        presentationOrder = order
        keyframeIndices = order.filter { samples[$0].isKeyframe }
    }

    /// The same samples shown `units` later (earlier when negative): every presentation time moves, their
    /// order does not.
    func movingPresentation(by units: Int64) -> SampleTable {
        var moved = samples
        for index in moved.indices { moved[index].presentationTime += units }
        return SampleTable(
            timescale: timescale, samples: moved, duration: duration, typicalSampleDuration: typicalSampleDuration)
    }

    /// The number of samples.
    public var count: Int { samples.count }

    /// The track's length in seconds.
    public var durationSeconds: Double { seconds(duration) }

    /// `units` of this table's timescale, in seconds.
    public func seconds(_ units: Int64) -> Double {
        Double(units) / Double(timescale)
    }

    /// When sample `index` is shown, in seconds.
    public func presentationSeconds(ofSample index: Int) -> Double {
        seconds(samples[index].presentationTime)
    }

    /// Average samples per second over the whole track (ffprobe's "avg_frame_rate"), or nil if it has no length.
    public var frameRate: Double? {
        guard duration > 0, !samples.isEmpty else { return nil }
        return Double(samples.count) / durationSeconds
    }

    /// The lowest and highest rate between consecutive samples (the timescale over the gap between their
    /// decode times), the last sample left out (its duration is a muxer's guess); nil with fewer than 3
    /// samples.
    public var frameRateRange: ClosedRange<Double>? {
        guard samples.count >= 3 else { return nil }
        var shortest = Int64.max
        var longest: Int64 = 0
        for index in 0..<samples.count - 1 {
            let gap = samples[index + 1].decodeTime - samples[index].decodeTime
            guard gap > 0 else { continue }
            shortest = min(shortest, gap)
            longest = max(longest, gap)
        }
        guard longest > 0 else { return nil }
        return Double(timescale) / Double(longest)...Double(timescale) / Double(shortest)
    }

    /// Samples per second from the most common sample duration (ffprobe's "r_frame_rate"), or nil.
    public var nominalFrameRate: Double? {
        guard typicalSampleDuration > 0 else { return nil }
        return Double(timescale) / Double(typicalSampleDuration)
    }

    /// The sample on screen at `time` seconds: the last one shown at or before it. Times before the first
    /// sample give the first; nil only for an empty table or a time that is not a number.
    public func sampleIndex(at time: Double) -> Int? {
        guard !presentationOrder.isEmpty, !time.isNaN else { return nil }
        let position = lastPosition(in: presentationOrder, atOrBefore: time)
        return presentationOrder[max(position, 0)]
    }

    /// The last keyframe shown at or before `time` seconds (where decoding must start to show `time`),
    /// or nil when no keyframe is that early. These lookups are in packet time: a keyframe an edit list
    /// hides (pre-roll) is found at its negative time. Seeks go by `TrackTimeline`, which shows only the
    /// frames players show.
    public func keyframe(atOrBefore time: Double) -> Int? {
        guard !time.isNaN else { return nil }
        let position = lastPosition(in: keyframeIndices, atOrBefore: time)
        return position >= 0 ? keyframeIndices[position] : nil
    }

    /// The first keyframe shown at or after `time` seconds, or nil when none is that late.
    public func keyframe(atOrAfter time: Double) -> Int? {
        guard !time.isNaN else { return nil }
        let position = lastPosition(in: keyframeIndices, atOrBefore: time)
        if position >= 0, Double(samples[keyframeIndices[position]].presentationTime) == time * Double(timescale) {
            return keyframeIndices[position]
        }
        return position + 1 < keyframeIndices.count ? keyframeIndices[position + 1] : nil
    }

    /// Binary search over `indices` (sorted by presentation time): the position of the last sample shown at
    /// or before `time`, or -1 when all are later.
    private func lastPosition(in indices: [Int], atOrBefore time: Double) -> Int {
        let target = time * Double(timescale)
        var low = 0
        var high = indices.count
        while low < high {
            let middle = (low + high) / 2
            if Double(samples[indices[middle]].presentationTime) <= target {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low - 1
    }
}
