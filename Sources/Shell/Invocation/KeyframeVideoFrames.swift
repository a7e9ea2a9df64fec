import Foundation
import MediaFormats
import MediaManager
import Thumbnails
import VirtualCamera

/// The virtual camera's video thumbnails (`dir:`, `sim:`, `serve`) through the same bounded ffmpeg run as
/// the shell's own (`Thumbnails.MovieKeyframe`).
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
