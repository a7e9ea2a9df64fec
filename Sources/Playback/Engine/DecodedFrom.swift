/// The keyframe a frame is decoded from: the last shown keyframe at or before it, where a player starts
/// decoding to show it (mpv's precise seek, `ffmpeg -ss`). In `status --json` and a seek's outcome as
/// `decodedFrom`.
public struct DecodedFrom: Sendable, Codable, Equatable {
    /// Which shown keyframe, counting from 0; nil when none is shown at or before the frame (the first frames
    /// of a clip cut mid-GOP, decoded from a hidden keyframe before the start: see `decodeLeadIn`).
    public var keyframe: Int?
    /// The keyframe's frame number (0-based, presentation order); the first frame when `keyframe` is nil.
    public var frameIndex: Int
    /// The keyframe's time.
    public var position: Double

    /// `decoded from keyframe #2 at 0:20.00` for frame `frame`, or `keyframe #2` when it is that keyframe.
    public func phrase(for frame: Int) -> String {
        guard let keyframe else { return "decoded from a keyframe before the start that is not shown" }
        if frame == frameIndex { return "keyframe #\(keyframe)" }
        return "decoded from keyframe #\(keyframe) at \(TimeText.frameTime(position))"
    }
}

extension VideoTimeline {
    /// The keyframe frame `number` is decoded from.
    func decodedFrom(frame number: Int) -> DecodedFrom {
        let keyframe = keyframe(atOrBefore: frameTimes[number])
        return DecodedFrom(keyframe: keyframe.ordinal, frameIndex: keyframe.frame, position: frameTimes[keyframe.frame])
    }
}
