import MediaFormats

/// A video ready to play: its name, what its movie box says, and random access to its bytes (a camera file
/// read by GetPartialObject, or a local file). Built once per `play NAME`.
public struct PlaybackMedia: Sendable {
    /// The name shown in status and the prompt ("DJI_0003.MP4").
    public let name: String
    public let movie: MovieInfo
    /// The file's bytes, for the streaming endpoint that feeds an external player.
    public let source: any ByteRangeSource & Sendable
    /// The video track's frames and keyframes in presentation order.
    let timeline: VideoTimeline

    /// Fails with `.notAVideo` when the movie has no video track or its timeline shows no frames, and with
    /// `.unsupported` when its edit list cannot be played (a rate other than 1).
    public init(name: String, movie: MovieInfo, source: any ByteRangeSource & Sendable) throws(PlaybackError) {
        guard let track = movie.videoTrack else { throw PlaybackError(.noVideoTrack(name: name)) }
        let presentation: TrackTimeline
        switch track.timeline {
        case .success(let built): presentation = built
        case .failure(let error): throw PlaybackError(.unplayableTimeline(name: name, cause: error))
        }
        guard let timeline = VideoTimeline(
            presentation, table: track.sampleTable, movieDuration: movie.durationSeconds, framesPerSecond: track.frameRate)
        else {
            let why: PlaybackError.NoFrames = presentation.truncation != nil ? .cutOffBeforeFirstFrame : .editListShowsNone
            throw PlaybackError(.noFrames(name: name, why: why))
        }
        self.name = name
        self.movie = movie
        self.source = source
        self.timeline = timeline
    }

    /// Reads the movie box from `source` (only the boxes it needs, never the media data) and builds the media.
    public static func read(name: String, from source: any ByteRangeSource & Sendable) throws -> PlaybackMedia {
        let movie = try MovieReader().read(from: source)
        return try PlaybackMedia(name: name, movie: movie, source: source)
    }

    /// The first video track.
    public var video: TrackInfo { movie.videoTrack! }

    /// Length in seconds: the movie's, or the video track's when the movie does not say.
    public var duration: Double { timeline.duration }

    /// The MIME type the streaming endpoint announces.
    public var contentType: String { movie.isQuickTime ? "video/quicktime" : "video/mp4" }
}

/// The video frames in the order they are shown, with their times and which are keyframes: what seek and
/// step move along. Derived once from the track's presentation timeline (`TrackTimeline`): only frames the
/// edit list shows and whose bytes are in the file count.
struct VideoTimeline: Sendable {
    /// Presentation time in seconds of each frame, ascending (frame number = index).
    let frameTimes: [Double]
    /// The sample table index (decode order) of each frame.
    let frameSamples: [Int]
    /// Frame numbers of the shown keyframes, ascending (may be empty: a clip cut mid-GOP shows none
    /// until its next keyframe, and decodes its first frame from a hidden one).
    let keyframeFrames: [Int]
    /// Length in seconds: the movie's (one value for `ls -l`, `info` and `play`), never less than the
    /// last frame's time.
    let duration: Double
    /// The rate the video was recorded at (ffprobe's avg_frame_rate: see `TrackInfo.frameRate`).
    let framesPerSecond: Double?
    /// Half a tick of the track's timescale: how close a time must be to a frame's to count as that frame,
    /// so a time computed from a frame's own (rounded) seconds finds that frame again.
    let tolerance: Double
    /// Set when the first frame decodes from a keyframe before the start that is never shown.
    let leadIn: TrackTimeline.LeadIn?
    /// Set when the file is cut short: what the tables promised.
    let truncation: TrackTimeline.Truncation?

    init?(_ presentation: TrackTimeline, table: SampleTable, movieDuration: Double?, framesPerSecond: Double?) {
        guard presentation.frameCount > 0 else { return nil }
        frameSamples = presentation.frames.map(\.sample)
        frameTimes = presentation.frames.map { presentation.seconds($0.time) }
        keyframeFrames = presentation.keyframes
        let last = frameTimes[frameTimes.count - 1]
        let lastFrameEnd = last + table.seconds(max(table.typicalSampleDuration, 0))
        var length = movieDuration ?? presentation.durationSeconds ?? lastFrameEnd
        if !(length.isFinite && length > 0) { length = lastFrameEnd }
        duration = max(length, last)
        self.framesPerSecond = framesPerSecond ?? table.nominalFrameRate
        tolerance = 0.5 / Double(presentation.timescale)
        leadIn = presentation.leadIn
        truncation = presentation.truncation
    }

    var frameCount: Int { frameTimes.count }

    /// Half the usual time between frames (half a 30th of a second when the rate is unknown).
    var halfFrame: Double { 0.5 / (framesPerSecond.flatMap { $0 > 0 ? $0 : nil } ?? 30) }

    /// The frame on screen at `time`: the last one shown at or before it (the first for earlier times).
    func frame(at time: Double) -> Int {
        var low = 0
        var high = frameTimes.count
        let target = time + tolerance
        while low < high {
            let middle = (low + high) / 2
            if frameTimes[middle] <= target { low = middle + 1 } else { high = middle }
        }
        return max(low - 1, 0)
    }

    /// Where a seek to `time` lands: the last shown keyframe at or before it, as its ordinal among keyframes
    /// and its frame number; or the first frame (ordinal nil) when no shown keyframe is that early, which a
    /// player decodes from the hidden keyframe before it (see `leadIn`), or from the first frame itself.
    func keyframe(atOrBefore time: Double) -> (ordinal: Int?, frame: Int) {
        var low = 0
        var high = keyframeFrames.count
        let target = time + tolerance
        while low < high {
            let middle = (low + high) / 2
            if frameTimes[keyframeFrames[middle]] <= target { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return (keyframeFrames.first == 0 ? 0 : nil, 0) }
        return (low - 1, keyframeFrames[low - 1])
    }
}
