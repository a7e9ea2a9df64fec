import Foundation
import TestSupport
import Testing

/// Kinds of clip the timeline corpus (all H.264 MP4) has none of, among those issue 18 checked by hand:
/// 128x96, 3 s, made with ffmpeg at run time.
enum OtherClipKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// H.265 with B-frames and an open GOP: a CRA keyframe every second whose leading pictures (shown
    /// before it, decoded after it) refer to the GOP before.
    case hevcOpenGOP
    /// H.265 Main 10.
    case hevc10Bit
    /// QuickTime with a 90° display matrix, as a phone held upright writes.
    case movRotated
    /// 29.97 fps (30000/1001), as cameras in NTSC mode record.
    case ntscRate

    var testDescription: String { rawValue }

    /// The clip's name on the card.
    var fileName: String { rawValue.uppercased() + (self == .movRotated ? ".MOV" : ".MP4") }

    /// Makes the clip at `path`.
    func make(at path: String) throws {
        let rate = self == .ntscRate ? "30000/1001" : "30"
        let source = ["-f", "lavfi", "-i", "testsrc2=size=128x96:rate=\(rate)", "-t", "3"]
        var codec = [
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-x264-params", "bframes=2", "-pix_fmt", "yuv420p",
        ]
        switch self {
        case .hevcOpenGOP:
            codec = [
                "-c:v", "libx265", "-preset", "ultrafast", "-x265-params",
                "log-level=error:keyint=30:min-keyint=30:open-gop=1:bframes=3:scenecut=0", "-pix_fmt", "yuv420p",
                "-tag:v", "hvc1",
            ]
        case .hevc10Bit:
            codec = [
                "-c:v", "libx265", "-preset", "ultrafast", "-x265-params",
                "log-level=error:keyint=30:min-keyint=30:bframes=2", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1",
            ]
        case .movRotated:
            // ffmpeg writes the matrix only when it copies the stream.
            let upright = path + ".upright.mov"
            try #require(ExternalTool.ffmpeg).run(["-v", "error", "-y"] + source + codec + [upright])
            try #require(ExternalTool.ffmpeg).run([
                "-v", "error", "-y", "-i", upright, "-c", "copy", "-metadata:s:v:0", "rotate=90", path,
            ])
            return
        case .ntscRate:
            break
        }
        try #require(ExternalTool.ffmpeg).run(["-v", "error", "-y"] + source + codec + [path])
    }
}
