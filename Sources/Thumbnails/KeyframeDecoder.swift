import Foundation
import MediaFormats
import MediaManager
import POSIX

/// Decodes one keyframe into a JPEG with `ffmpeg`, used only when it is on the PATH.
///
/// The keyframe goes in as a raw H.264/H.265 stream (`AnnexB.stream`: parameter sets and one sample, a few
/// kB for a proxy) on ffmpeg's standard input; one JPEG, at most `maxSide` pixels wide and turned upright by
/// the track's rotation, comes back on its standard output. The run is bounded in time and output, and
/// ffmpeg is killed when the command is cancelled.
public struct KeyframeDecoder: Sendable {
    public let executable: String
    public var timeout: TimeInterval = 10
    public var maxOutputBytes = 4 << 20
    public var maxSide = 320
    /// The JPEG's quantizer (2 best, 31 worst), fixed: ffmpeg's default follows a bit rate spread over the
    /// frame rate it assumes, which differs between a raw stream and the movie it came from.
    public var quality = 3

    public init(executable: String) { self.executable = executable }

    /// ffmpeg from `PATH` in `environment`, nil when it is not there.
    public static func find(environment: [String: String]) -> KeyframeDecoder? {
        findExecutable("ffmpeg", path: environment["PATH"]).map { KeyframeDecoder(executable: $0) }
    }

    /// ffmpeg's arguments for `codec`, a clockwise `rotation` of 0, 90, 180 or 270 degrees, and the picture
    /// to keep (counted from 0 in the order the decoder puts them out).
    func arguments(codec: AnnexB.Codec, rotation: Int, picture: Int = 0) -> [String] {
        var filters = picture > 0 ? ["select=eq(n\\,\(picture))"] : []
        filters.append("scale=w='min(\(maxSide),iw)':h=-2")
        switch rotation {
        case 90: filters.append("transpose=clock")
        case 180: filters.append("hflip,vflip")
        case 270: filters.append("transpose=cclock")
        default: break
        }
        return [
            "-hide_banner", "-loglevel", "error", "-threads", "1",
            "-f", codec == .h264 ? "h264" : "hevc", "-i", "pipe:0",
            "-frames:v", "1", "-vf", filters.joined(separator: ","), "-pix_fmt", "yuvj420p", "-q:v", String(quality),
            "-f", "mjpeg", "pipe:1",
        ]
    }

    /// The JPEG of the first picture `stream` decodes to, or with `picture` of the one after that many (a
    /// frame decoded from the keyframe before it: see `MovieFrame`).
    public func jpeg(
        from stream: [UInt8], codec: AnnexB.Codec, rotation: Int, picture: Int = 0, cancellation: Cancellation
    ) throws -> [UInt8] {
        let finished: ChildProcess.Finished
        do {
            finished = try ChildProcess.run(
                executable: executable, arguments: arguments(codec: codec, rotation: rotation, picture: picture),
                input: stream,
                outputLimit: maxOutputBytes, timeout: timeout, cancellation: cancellation)
        } catch {
            switch error {
            case .couldNotStart(let why): throw KeyframeError.couldNotStart(executable: executable, why)
            case .cancelled: throw CancellationError()
            case .tookTooLong: throw KeyframeError.tookTooLong(seconds: timeout)
            case .tooMuchOutput: throw KeyframeError.tooMuchOutput(limit: maxOutputBytes)
            case .failed(let why): throw KeyframeError.failed(why)
            }
        }
        let jpeg = finished.output
        guard finished.exitCode == 0, jpeg.starts(with: [0xFF, 0xD8]) else {
            throw KeyframeError.noPicture(exitStatus: finished.exitCode)
        }
        return jpeg
    }

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
