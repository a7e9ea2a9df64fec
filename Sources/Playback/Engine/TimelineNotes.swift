/// What a player needs to know when the first shown frame is not a keyframe: decoding starts at a hidden
/// keyframe before the timeline's start (a clip cut with `ffmpeg -ss … -c copy`, an edit into mid-GOP), and
/// the frames before the first shown one are decoded and dropped. In `status --json` as `decodeLeadIn`.
public struct DecodeLeadIn: Sendable, Codable, Equatable {
    /// How far before the first shown frame the hidden keyframe is, in seconds of media.
    public var hiddenKeyframeSecondsBefore: Double
    /// Frames decoded but never shown before the first shown frame (the hidden keyframe included).
    public var hiddenFrames: Int
}

/// What plays of a file that is cut short (a copy that stopped, a card pulled out mid-write): the frames
/// whose bytes are all there, up to `playsTo`. In `status --json` as `truncated`.
public struct TruncationNote: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The frames the movie's tables promise (samples, before the edit list).
    public var declaredFrames: Int
    /// The samples whose bytes are all in the file.
    public var completeFrames: Int
    /// Where playback ends: the end of the last complete frame, in seconds.
    public var playsTo: Double
    /// The length the movie declares, in seconds; nil when it does not say.
    public var declaredDuration: Double?

    /// `the file is truncated: it plays to 0:02.9 (86 of 120 frames; 0:04.0 recorded)`.
    public var description: String {
        var text = "the file is truncated: it plays to \(TimeText.format(playsTo)) (\(completeFrames) of \(declaredFrames) frames"
        if let declaredDuration { text += "; \(TimeText.format(declaredDuration)) recorded" }
        return text + ")"
    }
}

extension VideoTimeline {
    var decodeLeadIn: DecodeLeadIn? {
        leadIn.map { DecodeLeadIn(hiddenKeyframeSecondsBefore: $0.secondsBefore, hiddenFrames: $0.hiddenSamples) }
    }

    var truncationNote: TruncationNote? {
        truncation.map {
            TruncationNote(
                declaredFrames: $0.declaredSamples, completeFrames: $0.completeSamples, playsTo: duration,
                declaredDuration: $0.declaredDuration)
        }
    }
}
