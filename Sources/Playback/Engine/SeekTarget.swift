/// Where `seek` should go, as the user wrote it: the cases of the shell's `SeekPosition`, so the shell
/// converts with a plain switch, and a frame number (`seek --frame N`, `frame N`).
public enum SeekTarget: Sendable, Hashable, Codable {
    /// Seconds from the start.
    case absolute(seconds: Double)
    /// Seconds from the current position (negative goes back).
    case relative(seconds: Double)
    /// A share of the duration, 0...100.
    case percent(Double)
    /// A frame number, counted from 0 in presentation order (as `status` and `step` count).
    case frame(Int)
}

/// What a seek lands on.
public enum SeekLanding: String, Sendable, Hashable, Codable {
    /// The frame shown at the time asked (the last one whose time is at or before it), decoded from the
    /// keyframe before it: mpv's precise seek (`absolute+exact`). What `seek POS` does.
    case frame
    /// The keyframe at or before the time asked, where decoding can start (`absolute+keyframes`): quicker
    /// on a slow camera, up to a GOP early. What `seek --key POS` does.
    case keyframe
}
