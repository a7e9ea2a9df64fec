import Foundation
import MediaFormats
import MediaManager
import POSIX

/// The first keyframe of a movie as a JPEG: only the movie box (bounded) and that one sample are read, and
/// `KeyframeDecoder` (ffmpeg, bounded in time and output) turns it into a picture.
public enum MovieKeyframe {
    /// The most bytes of a keyframe sample (an LRF keyframe is a few kB; a 4K one about 1 MB).
    static let maxKeyframeBytes = 8 << 20
    /// The most bytes of a movie box.
    static let maxMovieBoxBytes: UInt64 = 16 << 20

    public static func jpeg(
        from source: ByteRangeSource, name: String, decoder: KeyframeDecoder, cancellation: Cancellation
    ) throws -> [UInt8] {
        var limits = MovieReadLimits()
        limits.maxMovieBoxSize = maxMovieBoxBytes
        let movie = try MovieReader(limits: limits).read(from: source)
        guard let track = movie.videoTrack, let format = track.codec else {
            throw NoThumbnail(.noVideoTrack(name: name))
        }
        guard let codec = AnnexB.Codec(format: format), let payload = track.codecConfiguration else {
            throw NoThumbnail(.unsupportedCodec(name: name, format: format.description))
        }
        guard let sample = thumbnailSample(of: track) else {
            throw NoThumbnail(.noKeyframe(name: name))
        }
        guard Int(sample.size) <= maxKeyframeBytes else {
            throw KeyframeError.keyframeTooLarge(name: name, bytes: sample.size)
        }
        let bytes = try source.readFully(offset: sample.offset, count: Int(sample.size), what: "the first keyframe of \(name)")
        let stream = try AnnexB.stream(AnnexB.Configuration(payload, codec: codec), sample: bytes)
        return try decoder.jpeg(from: stream, codec: codec, rotation: track.rotation, cancellation: cancellation)
    }
}

extension MovieKeyframe {
    /// The keyframe a video's thumbnail shows: its first shown one on the presentation timeline, never a
    /// hidden pre-roll keyframe the edit list skips (a clip cut with `ffmpeg -ss … -c copy` starts with one
    /// no player shows). With no keyframe shown (a clip cut after its last one) or no timeline (an edit at a
    /// rate other than 1), the first keyframe in presentation order: the nearest picture there is.
    static func thumbnailSample(of track: TrackInfo) -> Sample? {
        let table = track.sampleTable
        if let timeline = try? track.timeline.get(), let first = timeline.keyframes.first {
            let index = timeline.frames[first].sample
            if table.samples.indices.contains(index) { return table.samples[index] }
        }
        return table.keyframeIndices.first.map { table.samples[$0] }
    }
}
