import Foundation
import MediaFormats
import MediaManager

/// The first keyframe of a movie as a JPEG: only the movie box (bounded) and that one sample are read, and
/// `KeyframeDecoder` (ffmpeg, bounded in time and output) turns it into a picture.
public enum MovieKeyframe {
    /// The most bytes of a keyframe sample (an LRF keyframe is a few kB; a 4K one about 1 MB).
    static let maxKeyframeBytes = 8 << 20
    /// The most bytes of a movie box.
    static let maxMovieBoxBytes: UInt64 = 16 << 20

    public static func jpeg(
        from source: ByteRangeSource, name: String, decoder: KeyframeDecoder, cancellation: CancellationFlag
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
        guard let index = track.sampleTable.keyframeIndices.first else {
            throw NoThumbnail(.noKeyframe(name: name))
        }
        let sample = track.sampleTable.samples[index]
        guard Int(sample.size) <= maxKeyframeBytes else {
            throw KeyframeError.keyframeTooLarge(name: name, bytes: sample.size)
        }
        let bytes = try source.readFully(offset: sample.offset, count: Int(sample.size), what: "the first keyframe of \(name)")
        let stream = try AnnexB.stream(AnnexB.Configuration(payload, codec: codec), sample: bytes)
        return try decoder.jpeg(from: stream, codec: codec, rotation: track.rotation, cancellation: cancellation)
    }
}
