import MediaFormats

/// Turns the first keyframe of a movie into a JPEG thumbnail. The virtual camera has no decoder of its
/// own; whoever builds it may give one (the shell's bounded ffmpeg run), so that a video's thumbnail shows
/// a frame of it, or of its `.LRF` proxy, rather than a generated tile.
public protocol VideoFrameDecoder: Sendable {
    /// The JPEG of the first keyframe of the movie in `source`; throws when there is none or it cannot
    /// be decoded. Must bound its own time and memory.
    func firstKeyframeJPEG(of source: ByteRangeSource) throws -> [UInt8]
}
