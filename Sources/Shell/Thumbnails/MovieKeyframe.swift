import Foundation
import MediaFormats
import MediaManager
import VirtualCamera

/// The first keyframe of a movie as a JPEG: only the movie box (bounded) and that one sample are read, and
/// `KeyframeDecoder` (ffmpeg, bounded in time and output) turns it into a picture.
enum MovieKeyframe {
    /// The most bytes of a keyframe sample (an LRF keyframe is a few kB; a 4K one about 1 MB).
    static let maxKeyframeBytes = 8 << 20
    /// The most bytes of a movie box.
    static let maxMovieBoxBytes: UInt64 = 16 << 20

    static func jpeg(
        from source: ByteRangeSource, name: String, decoder: KeyframeDecoder, cancellation: CancellationFlag
    ) throws -> [UInt8] {
        var limits = MovieReadLimits()
        limits.maxMovieBoxSize = maxMovieBoxBytes
        let movie = try MovieReader(limits: limits).read(from: source)
        guard let track = movie.videoTrack, let format = track.codec else {
            throw NoThumbnail(reason: "\(name) has no video track")
        }
        guard let codec = AnnexB.Codec(format: format), let payload = track.codecConfiguration else {
            throw NoThumbnail(reason: "\(name) is '\(SafeText.display(format.description))', not H.264 or H.265")
        }
        guard let index = track.sampleTable.keyframeIndices.first else {
            throw NoThumbnail(reason: "\(name) has no keyframe")
        }
        let sample = track.sampleTable.samples[index]
        guard Int(sample.size) <= maxKeyframeBytes else {
            throw CommandError("the first keyframe of \(name) is \(sample.size) bytes, more than a thumbnail is worth")
        }
        let bytes = try source.readFully(offset: sample.offset, count: Int(sample.size), what: "the first keyframe of \(name)")
        let stream = try AnnexB.stream(AnnexB.Configuration(payload, codec: codec), sample: bytes)
        return try decoder.jpeg(from: stream, codec: codec, rotation: track.rotation, cancellation: cancellation)
    }
}

/// The virtual camera's video thumbnails (`dir:`, `sim:`, `serve`) through the same bounded ffmpeg run.
struct KeyframeVideoFrames: VideoFrameDecoder {
    let decoder: KeyframeDecoder

    /// Nil when ffmpeg is not on the PATH: the virtual camera then draws its tiles.
    static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> KeyframeVideoFrames? {
        KeyframeDecoder.find(environment: environment).map { KeyframeVideoFrames(decoder: $0) }
    }

    func firstKeyframeJPEG(of source: ByteRangeSource) throws -> [UInt8] {
        try MovieKeyframe.jpeg(from: source, name: "the video", decoder: decoder, cancellation: CancellationFlag())
    }
}
