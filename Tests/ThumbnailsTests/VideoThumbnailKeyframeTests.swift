import Foundation
import MediaFormats
import MediaManager
import TestSupport
import Testing

@testable import Thumbnails

/// Issue 18: a video's thumbnail is its first shown keyframe. A clip cut with `ffmpeg -ss 1.3 -c copy` keeps
/// the keyframe before the cut as hidden pre-roll; the thumbnail must not show that picture, which no player
/// shows, but the first keyframe ffprobe shows (the same bytes: ffprobe's packet position).
@Suite("Video thumbnails come from the first shown keyframe", .enabled(if: ffmpegIsInstalled, "needs ffmpeg and ffprobe"), .tags(.process), .notInFastRun)
struct VideoThumbnailKeyframeTests {
    private func tool(_ arguments: [String]) throws -> String {
        let tool = try #require(ExternalTool.find(arguments[0]), "\(arguments[0]) is not installed")
        return String(decoding: try tool.run(Array(arguments.dropFirst())), as: UTF8.self)
    }

    @Test func aCutClipsThumbnailIsNotItsHiddenPreRoll() throws {
        let folder = try TemporaryFolder("msh-preroll")
        let source = folder.path + "/source.mp4"
        let clip = folder.path + "/cut.mp4"
        _ = try tool([
            "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x64:rate=30", "-t", "5", "-c:v",
            "libx264", "-preset", "ultrafast", "-g", "60", "-keyint_min", "60", "-sc_threshold", "0", "-pix_fmt",
            "yuv420p", source,
        ])
        _ = try tool(["ffmpeg", "-v", "error", "-y", "-ss", "1.3", "-i", source, "-c", "copy", clip])
        // The first keyframe ffprobe decodes and shows: its byte position in the file.
        let shown = try tool([
            "ffprobe", "-v", "quiet", "-select_streams", "v:0", "-skip_frame", "nokey", "-show_entries",
            "frame=pkt_pos", "-of", "csv=p=0", clip,
        ])
        let position = try #require(shown.split(separator: "\n").first.flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) })

        let track = try #require(try MovieReader().read(from: FileByteSource(path: clip)).videoTrack)
        let hidden = track.sampleTable.samples[try #require(track.sampleTable.keyframeIndices.first)]
        #expect(hidden.offset != position, "the clip starts with a hidden keyframe")
        let chosen = try #require(MovieKeyframe.thumbnailSample(of: track))
        #expect(chosen.offset == position, "thumbnail from byte \(chosen.offset), ffprobe's first shown keyframe at \(position)")
    }
}
