import Failures

/// The file has no thumbnail anywhere the policy looked: not a failure of the command, said in a line of
/// its own. `reason` says where it looked.
public struct NoThumbnail: Error, CustomStringConvertible, CategorizedError {
    public enum Reason: Sendable, Equatable {
        /// The camera sent an empty thumbnail.
        case emptyFromCamera
        /// A photo: the camera has none, and its EXIF holds none.
        case noneForPhoto
        /// A video with an `.LRF` proxy, but no ffmpeg to decode it.
        case proxyNeedsFFmpeg
        /// A video with neither a `.THM` nor an `.LRF` beside it.
        case noSidecarOrProxy
        /// The movie has no video track.
        case noVideoTrack(name: String)
        /// The movie's codec is not H.264 or H.265.
        case unsupportedCodec(name: String, format: String)
        /// The movie has no keyframe.
        case noKeyframe(name: String)
    }

    public let reason: Reason

    public init(_ reason: Reason) { self.reason = reason }

    public var category: FailureCategory { .notSupported }

    public var description: String {
        let why: String
        switch reason {
        case .emptyFromCamera: why = "the camera sent an empty one"
        case .noneForPhoto: why = "the camera has none for this file"
        case .proxyNeedsFFmpeg: why = "the camera has none, and decoding the .LRF proxy needs ffmpeg"
        case .noSidecarOrProxy: why = "the camera has none, and there is no .THM or .LRF beside it"
        case .noVideoTrack(let name): why = "\(name) has no video track"
        case .unsupportedCodec(let name, let format): why = "\(name) is '\(format)', not H.264 or H.265"
        case .noKeyframe(let name): why = "\(name) has no keyframe"
        }
        return "no thumbnail (\(why))"
    }
}
