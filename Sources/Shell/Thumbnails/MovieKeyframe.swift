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
        guard let sample = thumbnailSample(of: track) else {
            throw NoThumbnail(reason: "\(name) has no keyframe")
        }
        guard Int(sample.size) <= maxKeyframeBytes else {
            throw CommandError("the first keyframe of \(name) is \(sample.size) bytes, more than a thumbnail is worth")
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
