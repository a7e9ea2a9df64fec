import Foundation
import MediaFormats
import MediaManager
import POSIX

/// Pictures across a movie (`thumb --frames N`): the keyframes nearest to N times spread evenly over its
/// presentation timeline, each read as one sample and decoded by `KeyframeDecoder`. Only the movie box and
/// those samples are read, each bounded as the first keyframe is.
public struct MovieKeyframes: Sendable {
    /// The most pictures one clip gives.
    public static let maxCount = 16

    /// One picture: where it is on the timeline (seconds) and its JPEG.
    public struct Picture: Sendable {
        public var seconds: Double
        public var jpeg: [UInt8]
    }

    /// The frames shown at these times: the middles of `count` equal parts of the timeline.
    static func targets(count: Int, duration: Double) -> [Double] {
        (0..<count).map { (Double($0) + 0.5) * duration / Double(count) }
    }

    /// Up to `count` (1 to `maxCount`) distinct keyframes across the movie in `source`, in time order: fewer
    /// when the movie has fewer keyframes. `picture` gets each as it is decoded (for drawing as they come).
    public static func pictures(
        from source: ByteRangeSource, name: String, count: Int, decoder: KeyframeDecoder, cancellation: Cancellation,
        picture: (Picture) -> Void
    ) throws {
        var limits = MovieReadLimits()
        limits.maxMovieBoxSize = MovieKeyframe.maxMovieBoxBytes
        let movie = try MovieReader(limits: limits).read(from: source)
        guard let track = movie.videoTrack, let format = track.codec else { throw NoThumbnail(.noVideoTrack(name: name)) }
        guard let codec = AnnexB.Codec(format: format), let payload = track.codecConfiguration else {
            throw NoThumbnail(.unsupportedCodec(name: name, format: format.description))
        }
        let timeline = try track.timeline.get()
        guard !timeline.keyframes.isEmpty else { throw NoThumbnail(.noKeyframe(name: name)) }
        let duration = timeline.durationSeconds ?? timeline.time(ofFrame: timeline.frames.count - 1)
        var chosen: [Int] = []
        for target in targets(count: min(max(count, 1), maxCount), duration: duration) {
            let nearest = timeline.keyframes.min { abs(timeline.time(ofFrame: $0) - target) < abs(timeline.time(ofFrame: $1) - target) }
            if let nearest, !chosen.contains(nearest) { chosen.append(nearest) }
        }
        let configuration = try AnnexB.Configuration(payload, codec: codec)
        for frame in chosen.sorted() {
            if cancellation.isCancelled { throw CancellationError() }
            let index = timeline.frames[frame].sample
            guard track.sampleTable.samples.indices.contains(index) else { continue }
            let sample = track.sampleTable.samples[index]
            guard Int(sample.size) <= MovieKeyframe.maxKeyframeBytes else {
                throw KeyframeError.keyframeTooLarge(name: name, bytes: sample.size)
            }
            let bytes = try source.readFully(
                offset: sample.offset, count: Int(sample.size), what: "a keyframe of \(name)")
            let stream = try AnnexB.stream(configuration, sample: bytes)
            let jpeg = try decoder.jpeg(from: stream, codec: codec, rotation: track.rotation, cancellation: cancellation)
            picture(Picture(seconds: timeline.time(ofFrame: frame), jpeg: jpeg))
        }
    }
}
