import Foundation

/// What a movie file (MP4, MOV, DJI LRF) holds, read from its movie box alone: brands, duration, tracks.
public struct MovieInfo: Sendable {
    /// The `ftyp` major brand ("isom", "mp42", "qt  "), nil for old QuickTime files without `ftyp`.
    public let majorBrand: FourCC?
    /// The `ftyp` compatible brands.
    public let compatibleBrands: [FourCC]
    /// Units per second of the movie-level duration (`mvhd`).
    public let timescale: UInt32
    /// The duration `mvhd` (or `mehd`) declares, in `timescale` units; 0 when it does not say.
    public internal(set) var declaredDuration: UInt64
    /// The movie's length in seconds as players present it: the longest track's timeline (its edit list,
    /// its fragments, up to the last complete frame of a truncated file), else what `mvhd` declares; nil
    /// when nothing says (never a made-up 0). `ls -l`, `info` and `play` all show this one value.
    public internal(set) var durationSeconds: Double?
    /// When the movie was made, from `mvhd`; nil when the field is zero.
    public let creationDate: Date?
    /// The tracks in file order.
    public internal(set) var tracks: [TrackInfo]
    /// Where the movie box starts in the file.
    public let movieBoxOffset: UInt64
    /// The movie box's size in bytes, header included.
    public let movieBoxSize: UInt64
    /// True when the movie box comes before the media data ("fast start"), so playback can begin after
    /// reading the head of the file.
    public let isFastStart: Bool
    /// Movie fragments (`moof`) read after the movie box; 0 for a file that is not fragmented.
    public internal(set) var fragmentCount = 0
    /// True when the fragments were located through the file's index (`sidx`, `mfra`) and only the first
    /// and last were read: the video track's timeline is exact, on its constant frame grid, but its sample
    /// table holds only the first fragment's samples, and other fragmented tracks have no timeline.
    public internal(set) var fragmentsFromIndex = false
    /// True when the file ends before the data its boxes describe: some samples' bytes are missing, or a
    /// fragment is cut off. `truncation` of each track says what still plays.
    public internal(set) var isTruncated = false

    init(
        majorBrand: FourCC?, compatibleBrands: [FourCC], timescale: UInt32, declaredDuration: UInt64,
        creationDate: Date?, tracks: [TrackInfo], movieBoxOffset: UInt64, movieBoxSize: UInt64, isFastStart: Bool
    ) {
        self.majorBrand = majorBrand
        self.compatibleBrands = compatibleBrands
        self.timescale = timescale
        self.declaredDuration = declaredDuration
        self.creationDate = creationDate
        self.tracks = tracks
        self.movieBoxOffset = movieBoxOffset
        self.movieBoxSize = movieBoxSize
        self.isFastStart = isFastStart
    }

    /// The first video track, if any.
    public var videoTrack: TrackInfo? { tracks.first { $0.kind == .video } }

    /// The first audio track, if any.
    public var audioTrack: TrackInfo? { tracks.first { $0.kind == .audio } }

    /// True for a QuickTime movie (major brand "qt  ").
    public var isQuickTime: Bool { majorBrand == "qt  " }
}

/// The kind of media a track carries, from its handler.
public enum TrackKind: Sendable, Equatable, CustomStringConvertible {
    case video
    case audio
    /// Timecode, subtitles, metadata and anything else, with its handler type.
    case other(FourCC)

    init(handler: FourCC) {
        switch handler {
        case "vide": self = .video
        case "soun": self = .audio
        default: self = .other(handler)
        }
    }

    public var description: String {
        switch self {
        case .video: "video"
        case .audio: "audio"
        case .other(let handler): "other (\(handler))"
        }
    }
}

/// One track of a movie: its kind, codec, picture geometry, timing and samples.
public struct TrackInfo: Sendable {
    /// The track ID from `tkhd`.
    public let id: UInt32
    /// Video, audio or something else.
    public let kind: TrackKind
    /// The `hdlr` handler type ("vide", "soun", "tmcd", ...).
    public let handler: FourCC
    /// The first sample entry's format: the codec ("avc1", "hvc1", "mp4a"), nil without sample entries.
    public let codec: FourCC?
    /// The coded picture width from the visual sample entry (video only).
    public let codedWidth: Int?
    /// The coded picture height from the visual sample entry (video only).
    public let codedHeight: Int?
    /// The presentation width from `tkhd`, before rotation (zero for audio).
    public let width: Double
    /// The presentation height from `tkhd`, before rotation (zero for audio).
    public let height: Double
    /// Clockwise rotation applied for display, from the `tkhd` matrix: 0, 90, 180 or 270.
    public let rotation: Int
    /// Audio samples per second, from the sound sample entry (audio only).
    public let sampleRate: Double?
    /// Audio channels, from the AAC decoder config when present, else the sound sample entry (audio only).
    public let channelCount: Int?
    /// The decoder configuration of the first video sample entry: the payload of its `avcC` (H.264) or
    /// `hvcC` (H.265) box, with the parameter sets a decoder needs before the first frame (see `AnnexB`).
    public let codecConfiguration: [UInt8]?
    /// Units per second of the track's media times (`mdhd`).
    public let timescale: UInt32
    /// The media duration from `mdhd`, in `timescale` units.
    public let duration: UInt64
    /// The edit list (`elst`), nil when the track has none.
    public let editList: [EditListEntry]?
    /// The movie's timescale, in which edit durations count.
    let movieTimescale: UInt32
    /// Every sample, with times, offsets, sizes and keyframe flags (the movie box's and its fragments').
    public internal(set) var sampleTable: SampleTable
    /// The frames as players show them (see `TrackTimeline`), or why they cannot be shown (an edit at a
    /// rate other than 1).
    public internal(set) var timeline: Result<TrackTimeline, MediaFormatError> = .failure(
        MediaFormatError(.timelineNotBuilt))

    /// The media duration in seconds.
    public var durationSeconds: Double { Double(duration) / Double(max(timescale, 1)) }

    /// The picture's width as displayed, after rotation.
    public var displayWidth: Int { rotation % 180 == 0 ? unrotatedWidth : unrotatedHeight }

    /// The picture's height as displayed, after rotation.
    public var displayHeight: Int { rotation % 180 == 0 ? unrotatedHeight : unrotatedWidth }

    /// Landscape or portrait as displayed.
    public var orientation: DisplayOrientation {
        DisplayOrientation(width: displayWidth, height: displayHeight)
    }

    /// The frame rate the video was recorded at: every sample over the sum of their durations (`stts`,
    /// `trun`), as ffprobe computes avg_frame_rate (libavformat's mov demuxer). Neither the edit list nor a
    /// cut-off end changes it: a clip that starts 0.5 s after its audio, hides its pre-roll or lost its last
    /// second is still 30 fps. For a variable-rate clip it is the average (see `variableFrameRate`).
    public var frameRate: Double? { sampleTable.frameRate }

    /// The lowest and highest rate between consecutive frames when they differ by more than 1% (a phone's
    /// variable-rate video, a clip that drops from 30 to 10 fps), nil for a constant-rate track. The last
    /// sample's duration is left out: muxers guess it.
    public var variableFrameRate: ClosedRange<Double>? {
        guard let range = sampleTable.frameRateRange, range.upperBound > range.lowerBound * 1.01 else { return nil }
        return range
    }

    /// How long the track lasts as presented: its timeline's length; for a track whose timeline cannot be
    /// built (an edit at a rate other than 1: slow motion plays media for longer than it lasts) the edit
    /// list's total, which is the presentation's length by definition (ISO/IEC 14496-12 8.6.6: segment
    /// durations count on the movie's timeline); nil when nothing says.
    public var presentedDurationSeconds: Double? {
        if case .success(let built) = timeline { return built.durationSeconds }
        guard let editList, !editList.isEmpty else { return nil }
        let total = editList.reduce(UInt64(0)) { $0 &+ $1.segmentDuration }
        guard total > 0, total < UInt64.max / 4 else { return nil }
        return Double(total) / Double(max(movieTimescale, 1))
    }

    private var unrotatedWidth: Int { width >= 1 ? Int(width.rounded()) : codedWidth ?? 0 }
    private var unrotatedHeight: Int { height >= 1 ? Int(height.rounded()) : codedHeight ?? 0 }
}
