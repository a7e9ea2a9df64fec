import Failures
import POSIX

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

/// Why a keyframe could not become a thumbnail: the sample is too large, or the decoder (ffmpeg) failed.
public enum KeyframeError: Error, Equatable, CustomStringConvertible, CategorizedError {
    /// The first keyframe is larger than a thumbnail is worth.
    case keyframeTooLarge(name: String, bytes: UInt32)
    /// The decoder could not be started.
    case couldNotStart(executable: String, SystemError)
    /// It ran past its time limit and was killed.
    case tookTooLong(seconds: Double)
    /// It wrote more than the output limit and was killed.
    case tooMuchOutput(limit: Int)
    /// Its pipes failed.
    case failed(SystemError)
    /// It ended without a JPEG; `exitStatus` nil when a signal ended it.
    case noPicture(exitStatus: Int32?)
    /// The frame's sample is not in the tables read (a fragment of a long fragmented movie that was not read).
    case frameNotInTables(name: String, frame: Int)
    /// Decoding the frame needs more bytes than one picture is worth: from a keyframe far before it.
    case frameTooFarFromKeyframe(name: String, frame: Int, bytes: UInt64, limit: Int)

    public var category: FailureCategory {
        switch self {
        case .keyframeTooLarge, .frameNotInTables, .frameTooFarFromKeyframe: .notSupported
        case .couldNotStart, .failed, .tooMuchOutput, .noPicture: .localIO
        case .tookTooLong: .timedOut
        }
    }

    public var description: String {
        switch self {
        case .keyframeTooLarge(let name, let bytes):
            "the first keyframe of \(name) is \(bytes) bytes, more than a thumbnail is worth"
        case .couldNotStart(let executable, let why): "cannot run \(executable): \(errnoText(why.errno))"
        case .tookTooLong(let seconds): "ffmpeg took more than \(KeyframeDecoder.seconds(seconds))"
        case .tooMuchOutput(let limit): "ffmpeg wrote more than \(limit) bytes"
        case .failed(let why): "ffmpeg: \(why)"
        case .noPicture(let status):
            "ffmpeg could not decode the keyframe (exit status \(status.map(String.init) ?? "none: killed by a signal"))"
        case .frameNotInTables(let name, let frame): "frame \(frame) of \(name) is in a part of the file not read"
        case .frameTooFarFromKeyframe(let name, let frame, let bytes, let limit):
            "frame \(frame) of \(name) decodes from \(bytes) bytes after its keyframe, more than \(limit) for one picture"
        }
    }
}
