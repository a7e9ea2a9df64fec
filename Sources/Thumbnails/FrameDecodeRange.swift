import MediaFormats

/// What a decoder needs to show one frame of a video track: the samples from the sync sample before it to
/// the frame's own, in decode order (what mpv's precise seek and `ffmpeg -ss` decode), and which of the
/// pictures it puts out is that frame.
public struct FrameDecodeRange: Sendable, Equatable {
    /// Sample indices in decode order: a sync sample first, the frame's own sample last.
    public let samples: ClosedRange<Int>
    /// How many pictures the decoder puts out before the frame's own: those of `samples` shown from the sync
    /// sample's time on and before the frame. Pictures shown before the sync sample (the leading pictures of
    /// an open GOP, which refer to the GOP before) are dropped by a decoder that starts at it.
    public let picturesBefore: Int

    /// The range for frame `number` of `timeline` (a frame of `table`'s track); nil when there is no such
    /// frame or its sample is not in the table (a fragment of a long fragmented movie that was not read).
    public init?(frame number: Int, of timeline: TrackTimeline, table: SampleTable) {
        guard timeline.frames.indices.contains(number) else { return nil }
        let target = timeline.frames[number].sample
        let samples = table.samples
        guard samples.indices.contains(target) else { return nil }
        let shownAt = samples[target].compositionTime
        // The sync sample at or before the frame in decode order, shown no later than it: a picture shown
        // before the sync sample that follows it in decode order needs the GOP before.
        var start = target
        while start > 0 && !(samples[start].isKeyframe && samples[start].compositionTime <= shownAt) { start -= 1 }
        let from = samples[start].compositionTime
        self.samples = start...target
        picturesBefore = samples[start..<target].count { $0.compositionTime >= from && $0.compositionTime < shownAt }
    }

    /// The bytes the range's samples take in the file.
    public func byteCount(in table: SampleTable) -> UInt64 {
        samples.reduce(0) { $0 + UInt64(table.samples[$1].size) }
    }
}
