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

    /// Fails with `.notAVideo` when the movie has no video track or its track has no frames.
    public init(name: String, movie: MovieInfo, source: any ByteRangeSource & Sendable) throws(PlaybackError) {
        guard let track = movie.videoTrack else { throw PlaybackError(.notAVideo, "\(name) has no video track") }
        guard let timeline = VideoTimeline(track: track, movieDuration: movie.durationSeconds) else {
            throw PlaybackError(.notAVideo, "\(name) has a video track without frames")
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
/// step move along. Derived once from the track's sample table.
struct VideoTimeline: Sendable {
    /// Presentation time in seconds of each frame, ascending (frame number = index).
    let frameTimes: [Double]
    /// The sample table index (decode order) of each frame.
    let frameSamples: [Int]
    /// Frame numbers of the keyframes, ascending.
    let keyframeFrames: [Int]
    /// Length in seconds.
    let duration: Double
    /// Average frames per second.
    let framesPerSecond: Double?
    /// Half a tick of the track's timescale: how close a time must be to a frame's to count as that frame,
    /// so a time computed from a frame's own (rounded) seconds finds that frame again.
    let tolerance: Double

    init?(track: TrackInfo, movieDuration: Double) {
        let table = track.sampleTable
        guard table.count > 0 else { return nil }
        frameSamples = table.presentationOrder
        frameTimes = table.presentationOrder.map { table.presentationSeconds(ofSample: $0) }
        var keyframes = [Int]()
        for (frame, sample) in table.presentationOrder.enumerated() where table.samples[sample].isKeyframe {
            keyframes.append(frame)
        }
        // A stream that marks no keyframe at all still decodes from its first frame.
        keyframeFrames = keyframes.isEmpty ? [0] : keyframes
        let lastFrameEnd = frameTimes[frameTimes.count - 1] + table.seconds(max(table.typicalSampleDuration, 0))
        var length = movieDuration.isFinite && movieDuration > 0 ? movieDuration : track.durationSeconds
        if !(length.isFinite && length > 0) { length = lastFrameEnd }
        duration = max(length, frameTimes[frameTimes.count - 1])
        framesPerSecond = track.frameRate ?? table.nominalFrameRate
        tolerance = 0.5 / Double(table.timescale)
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

    /// The keyframe to decode from to show `time`: the last at or before it (the first for earlier times),
    /// as its ordinal among keyframes and its frame number.
    func keyframe(atOrBefore time: Double) -> (ordinal: Int, frame: Int) {
        var low = 0
        var high = keyframeFrames.count
        let target = time + tolerance
        while low < high {
            let middle = (low + high) / 2
            if frameTimes[keyframeFrames[middle]] <= target { low = middle + 1 } else { high = middle }
        }
        let ordinal = max(low - 1, 0)
        return (ordinal, keyframeFrames[ordinal])
    }
}
