import Foundation
import MediaFormats
import MediaManager
import TestSupport
import Testing

@testable import Playback

/// The demo media committed in Sources/VirtualCamera/DemoMedia, found from this file's path.
enum DemoClips {
    static let videos = ["landscape_faststart.mp4", "portrait_moovend.mp4", "clip.mov"]

    static var directory: URL { DemoMedia.directory }

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func media(_ name: String) throws -> PlaybackMedia {
        try PlaybackMedia.read(name: name, from: FileByteSource(path: path(name)))
    }
}

/// Makes an H.264 test clip with ffmpeg: `seconds` long, a keyframe exactly every second, moov at the end
/// unless `fastStart` (what a camera writes while recording).
func makeClip(
    at path: String, seconds: Int, size: String = "640x360", rate: Int = 30, bitrate: String? = nil, fastStart: Bool = false
) throws {
    guard let ffmpeg = ExternalTool.ffmpeg else { throw ExternalTool.ToolFailure(description: "ffmpeg is not installed") }
    var arguments = [
        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)", "-t", String(seconds),
        "-c:v", "libx264", "-preset", "ultrafast", "-g", String(rate), "-keyint_min", String(rate),
        "-sc_threshold", "0", "-pix_fmt", "yuv420p",
    ]
    if let bitrate { arguments += ["-b:v", bitrate] }
    if fastStart { arguments += ["-movflags", "+faststart"] }
    try ffmpeg.run(arguments + [path])
}

/// What ffprobe says about a file's first video stream: every frame's presentation time in presentation
/// order, and which are keyframes.
struct ProbedVideo {
    var frameTimes: [Double]
    var keyframeTimes: [Double]
    var duration: Double

    init(path: String) throws {
        let tool = try #require(ExternalTool.ffprobe)
        let data = try tool.run([
            "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags:format=duration",
            "-of", "json", path,
        ])
        struct Output: Decodable {
            struct Packet: Decodable {
                var pts_time: String?
                var flags: String?
            }
            struct Format: Decodable { var duration: String? }
            var packets: [Packet]
            var format: Format
        }
        let output = try JSONDecoder().decode(Output.self, from: data)
        let packets = output.packets.compactMap { packet in
            packet.pts_time.flatMap(Double.init).map { ($0, packet.flags?.contains("K") ?? false) }
        }.sorted { $0.0 < $1.0 }
        frameTimes = packets.map(\.0)
        keyframeTimes = packets.filter(\.1).map(\.0)
        duration = Double(output.format.duration ?? "") ?? 0
    }
}

extension MediaSession {
    /// A camera video as the shell plays it: its movie box read through partial reads.
    func playbackMedia(for file: MediaFile) throws -> PlaybackMedia {
        try PlaybackMedia.read(name: file.name, from: byteSource(for: file))
    }
}
