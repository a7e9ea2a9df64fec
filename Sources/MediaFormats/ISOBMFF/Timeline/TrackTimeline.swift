/// A track as players present it (ISO/IEC 14496-12 8.6.6): the samples its edit list shows, each at its
/// time on the presentation timeline, in the order they are shown. Samples outside every edit (the pre-roll
/// of a clip cut without re-encoding, the parts a trimmed or spliced clip skips) are not frames of the
/// timeline; a sample an edit list shows twice is two frames; times never go negative. Samples whose bytes
/// lie past the end of the file are not shown either (see `truncation`).
///
/// A video track's frames start where players start them: when the edit list starts between two frames
/// (a clip cut with `ffmpeg -ss 0.3 -c copy` at 25 fps starts 0.02 s before its first whole frame), the
/// frame that straddles the start is dropped and every frame moves earlier by the gap, so the first shown
/// frame is at 0 (or at the end of the leading empty edits). libavformat does this (`mov_fix_index`:
/// "Offset DTS … to make first pts zero"), so ffprobe, ffmpeg and mpv all show the clip that way; the
/// engine drives mpv by these times, so they must be the same times (see `rebase`).
public struct TrackTimeline: Sendable {
    /// One shown frame: which sample, and when on the timeline.
    public struct Frame: Sendable, Equatable {
        /// The sample's index in the sample table (decode order); -1 for a frame of a fragment that was not
        /// read (a long fragmented movie read from its index: see `MovieInfo.fragmentsFromIndex`).
        public var sample: Int
        /// When it is shown, in the track's timescale units from the start of the timeline (never negative).
        public var time: Int64
    }

    /// How a file cut short limits what plays.
    public struct Truncation: Sendable, Equatable {
        /// Samples the track's tables promise.
        public var declaredSamples: Int
        /// Samples whose bytes are all in the file (a prefix in decode order).
        public var completeSamples: Int
        /// The timeline's length had the file been whole, in seconds; nil when unknown.
        public var declaredDuration: Double?
    }

    /// What decoding the first shown frame needs when it is not a keyframe: a keyframe before the timeline's
    /// start that is decoded but never shown (a clip cut with `-ss … -c copy`, an edit into mid-GOP).
    public struct LeadIn: Sendable, Equatable {
        /// The hidden keyframe's sample index.
        public var keyframeSample: Int
        /// Samples decoded and dropped before the first shown frame (the keyframe included).
        public var hiddenSamples: Int
        /// How long before the first shown frame the hidden keyframe sits, in seconds.
        public var secondsBefore: Double
    }

    /// Units per second of every time here (the track's media timescale).
    public let timescale: UInt32
    /// The shown frames, sorted by time.
    public let frames: [Frame]
    /// Frame numbers (indices into `frames`) of the shown keyframes, ascending.
    public let keyframes: [Int]
    /// The timeline's length in timescale units (the edit list's total, the media's duration without one,
    /// the end of the last complete frame in a truncated file); nil when nothing says.
    public let duration: Int64?
    /// Set when the first shown frame needs a hidden keyframe decoded first.
    public let leadIn: LeadIn?
    /// Set when some samples' bytes are missing from the file.
    public let truncation: Truncation?
    /// How far a video track's frames were moved earlier so its first shown frame starts the timeline (in
    /// timescale units; 0 when the edit list starts on a frame). Packet times (`Sample.presentationTime`)
    /// move by the same amount, as ffprobe's do.
    public var rebase: Int64 = 0

    /// The number of shown frames.
    public var frameCount: Int { frames.count }

    /// `units` of this timeline's timescale in seconds.
    public func seconds(_ units: Int64) -> Double { Double(units) / Double(timescale) }

    /// The length in seconds, nil when unknown.
    public var durationSeconds: Double? { duration.map(seconds) }

    /// When frame `number` is shown, in seconds.
    public func time(ofFrame number: Int) -> Double { seconds(frames[number].time) }
}
