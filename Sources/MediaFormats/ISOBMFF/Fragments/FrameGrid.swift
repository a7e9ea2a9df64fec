/// A video track on a constant frame grid, checked from the two fragments read and the index
/// (see `IndexedFragments`): frame `k` is shown at `k × frameDuration` from the first shown frame, and the
/// index gives which frames are keyframes. Builds the timeline the fragments in between would give,
/// without reading them.
struct FrameGrid {
    /// One frame's duration, in the track's timescale.
    let frameDuration: Int64
    /// The shown frames.
    let frameCount: Int
    /// Frame numbers of the keyframes, ascending.
    let keyframes: [Int]
    /// Frame number → index of the first fragment's sample shown there.
    let firstFragmentFrames: [Int: Int]

    /// nil unless the samples of the first and last fragments, the decode time after the last one and
    /// every indexed keyframe agree on one grid.
    init?(first: [Sample], last: [Sample], lastDecodeEnd: Int64, index: FragmentIndex, maxFrames: Int) {
        guard let head = first.first, let tail = last.last else { return nil }
        var steps = zip(first, first.dropFirst()).map { $1.decodeTime - $0.decodeTime }
        steps += zip(last, last.dropFirst()).map { $1.decodeTime - $0.decodeTime }
        steps.append(lastDecodeEnd - tail.decodeTime)
        guard let step = steps.first, step > 0, steps.allSatisfy({ $0 == step }) else { return nil }
        guard let origin = first.map(\.compositionTime).min(), let latest = last.map(\.compositionTime).max()
        else { return nil }
        let onGrid = { (samples: [Sample]) in samples.allSatisfy { ($0.compositionTime - origin) % step == 0 } }
        guard onGrid(first), onGrid(last) else { return nil }
        // Shown frames and decoded samples must cover the same span: one frame per sample, none missing.
        let span = latest + step - origin
        guard span > 0, span == lastDecodeEnd - head.decodeTime, span / step <= Int64(maxFrames) else { return nil }
        frameDuration = step
        frameCount = Int(span / step)

        var keys: [Int] = []
        for entry in index.entries {
            let time = index.timesAreRelative ? entry.time : entry.time - origin
            guard time >= 0, time % step == 0, time / step < Int64(frameCount) else { return nil }
            let frame = Int(time / step)
            guard frame > (keys.last ?? -1) else { return nil }
            keys.append(frame)
        }
        // The index must list every keyframe of the fragments read (so it lists all of them, not a sample).
        let frameOf = { (sample: Sample) in Int((sample.compositionTime - origin) / step) }
        for samples in [first, last] {
            let frames = samples.map(frameOf)
            guard let low = frames.min(), let high = frames.max() else { return nil }
            let indexed = keys.filter { (low...high).contains($0) }
            guard indexed == samples.filter(\.isKeyframe).map(frameOf).sorted() else { return nil }
        }
        guard keys.first == 0 else { return nil }  // the first shown frame decodes on its own
        keyframes = keys
        firstFragmentFrames = Dictionary(first.enumerated().map { (frameOf($1), $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The timeline: frames of the first fragment point at its samples, the others at no sample (-1) since
    /// their fragments were not read.
    func timeline(timescale: UInt32) -> TrackTimeline {
        let frames = (0..<frameCount).map {
            TrackTimeline.Frame(sample: firstFragmentFrames[$0] ?? -1, time: Int64($0) * frameDuration)
        }
        return TrackTimeline(
            timescale: max(timescale, 1), frames: frames, keyframes: keyframes, duration: Int64(frameCount) * frameDuration,
            leadIn: nil, truncation: nil)
    }
}
