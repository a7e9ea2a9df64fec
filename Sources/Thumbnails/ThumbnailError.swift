import Failures
import POSIX

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
