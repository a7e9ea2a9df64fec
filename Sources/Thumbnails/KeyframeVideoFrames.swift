import Foundation
import MediaFormats
import MediaManager
import POSIX

/// A video's first keyframe as a JPEG through the same bounded ffmpeg run as the shell's own thumbnails
/// (`MovieKeyframe`): what the virtual camera (`dir:`, `sim:`, `serve`) is given for its videos' thumbnails.
public struct KeyframeVideoFrames: VideoFrameDecoder {
    let decoder: KeyframeDecoder

    /// Nil when ffmpeg is not on the PATH: the virtual camera then draws its tiles.
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> KeyframeVideoFrames? {
        KeyframeDecoder.find(environment: environment).map { KeyframeVideoFrames(decoder: $0) }
    }

    public func firstKeyframeJPEG(of source: ByteRangeSource) throws -> [UInt8] {
        try MovieKeyframe.jpeg(from: source, name: "the video", decoder: decoder, cancellation: Cancellation())
    }
}
