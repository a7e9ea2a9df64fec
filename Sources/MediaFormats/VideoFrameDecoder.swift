/// Turns the first keyframe of a movie into a JPEG thumbnail. Declared here, beside the byte sources it
/// reads, so that whoever has a decoder (Thumbnails' bounded ffmpeg run) can hand it to whoever needs one
/// (the virtual camera, for a video's thumbnail) without either knowing the other.
public protocol VideoFrameDecoder: Sendable {
    /// The JPEG of the first keyframe of the movie in `source`; throws when there is none or it cannot
    /// be decoded. Must bound its own time and memory.
    func firstKeyframeJPEG(of source: ByteRangeSource) throws -> [UInt8]
}
