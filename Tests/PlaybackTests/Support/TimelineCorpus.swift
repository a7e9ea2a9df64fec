import Foundation
import TestSupport
import Testing

/// The clips of issue 18, made with ffmpeg at run time (64x64, a few seconds, so the whole corpus takes
/// well under a second of encoding): each the kind of timeline a player must read right.
enum TimelineCase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `ffmpeg -ss 1.3 -c copy`: 39 frames of pre-roll before the edit, the first shown frame not a keyframe.
    case preroll
    /// Two edits: 0-1 s shows media 0-1 s, 1-2 s shows media 2-3 s (written with `EditListWriter`).
    case twoEdits
    /// Variable frame rate, the edit ending exactly where the last sample starts (so it is not shown).
    case vfrLastSampleAtEditEnd
    /// H.264 with B-frames: composition offsets and an edit list that hides the reorder delay.
    case bFrames
    /// `-movflags frag_keyframe+empty_moov`: an empty `moov`, every sample in `moof`/`trun`.
    case fragmented
    /// `-movflags dash+global_sidx`: fragments indexed by a `sidx`.
    case fragmentedWithSidx
    /// A fast-start file cut at 70%: its tables promise frames whose bytes are not there.
    case truncatedFastStart
    /// Issue 27: 25 fps cut with `ffmpeg -ss 0.3 -c copy`: the edit starts 0.02 s before the first whole frame,
    /// so players drop the frame that straddles it and start the timeline at the next (first keyframe shown at
    /// 0.68 s, not 0.70).
    case prerollMidFrame
    /// Issue 27: the video starts 0.5 s after the audio (`-itsoffset 0.5`): a leading empty edit; still 30 fps.
    case leadingEmptyEdit
    /// Issue 27: 2 s at 30 fps then 2 s at 10 fps.
    case variableRate

    var testDescription: String { rawValue }

    /// The clip's name on the card.
    var fileName: String { "\(rawValue.uppercased()).MP4" }

    /// Makes the clip at `path`; `scratch` is a folder for intermediate files.
    func make(at path: String, scratch: String) throws {
        let source = "\(scratch)/source-\(rawValue).mp4"
        switch self {
        case .preroll:
            try encode(source, seconds: 5, gop: 60)
            try ffmpeg(["-ss", "1.3", "-i", source, "-c", "copy", path])
        case .twoEdits:
            try encode(path, seconds: 4, gop: 30, extra: ["-video_track_timescale", "15360"])
            try EditListWriter.rewrite(
                path, movieDuration: 2000,
                entries: [.init(duration: 1000, mediaTime: 0), .init(duration: 1000, mediaTime: 2 * 15360)])
        case .vfrLastSampleAtEditEnd:
            let spacing = "if(lt(N,40),N*33,1320+(N-40)*50)/1000/TB"
            try encode(path, seconds: 3, gop: 30, extra: [
                "-vf", "setpts='\(spacing)'", "-fps_mode", "vfr", "-video_track_timescale", "1000",
            ])
            let last = try ProbedFrames.lastPacketTime(path)
            let end = UInt32((last * 1000).rounded())
            try EditListWriter.rewrite(path, movieDuration: end, entries: [.init(duration: end, mediaTime: 0)])
        case .bFrames:
            try encode(path, seconds: 4, gop: 30, bFrames: true)
        case .fragmented:
            try encode(path, seconds: 4, gop: 30, bFrames: true, extra: ["-movflags", "frag_keyframe+empty_moov"])
        case .fragmentedWithSidx:
            try encode(path, seconds: 4, gop: 30, bFrames: true, extra: ["-movflags", "dash+global_sidx"])
        case .truncatedFastStart:
            try encode(source, seconds: 4, gop: 30, bFrames: true, extra: ["-movflags", "+faststart"])
            let whole = try Data(contentsOf: URL(fileURLWithPath: source))
            try whole.prefix(whole.count * 7 / 10).write(to: URL(fileURLWithPath: path))
        case .prerollMidFrame:
            try encode(source, seconds: 4, gop: 25, rate: 25)
            try ffmpeg(["-ss", "0.3", "-i", source, "-c", "copy", path])
        case .leadingEmptyEdit:
            let audio = "\(scratch)/audio-\(rawValue).m4a"
            try encode(source, seconds: 4, gop: 30)
            try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "4.5", "-c:a", "aac", audio])
            try ffmpeg(["-i", audio, "-itsoffset", "0.5", "-i", source, "-map", "0:a", "-map", "1:v", "-c", "copy", path])
        case .variableRate:
            // Frames 0-59 every 30th of a second, then every third frame of the source 10th of a second apart.
            let keep = "select='lt(n,60)+gte(n,60)*not(mod(n,3))'"
            let spacing = "setpts='if(lt(N,60),N/30,2+(N-60)/10)/TB'"
            try encode(path, seconds: 4, gop: 30, extra: ["-vf", "\(keep),\(spacing)", "-fps_mode", "vfr"])
        }
    }

    private func encode(
        _ path: String, seconds: Int, gop: Int, rate: Int = 30, bFrames: Bool = false, extra: [String] = []
    ) throws {
        var arguments = [
            "-f", "lavfi", "-i", "testsrc2=size=64x64:rate=\(rate)", "-t", String(seconds), "-c:v", "libx264",
            "-preset", "ultrafast", "-g", String(gop), "-keyint_min", String(gop), "-sc_threshold", "0",
            "-pix_fmt", "yuv420p",
        ]
        if bFrames { arguments += ["-x264-params", "bframes=2"] }
        try ffmpeg(arguments + extra + [path])
    }

    private func ffmpeg(_ arguments: [String]) throws {
        let tool = try #require(ExternalTool.ffmpeg)
        try tool.run(["-v", "error", "-y"] + arguments)
    }
}

/// What ffprobe decodes of a clip's first video stream: every frame's time (from the movie's start, as
/// players show it) in presentation order, the keyframes it shows (`-skip_frame nokey`), the duration and
/// the frame rate.
struct ProbedFrames: Sendable {
    var frameTimes: [Double]
    var keyframeTimes: [Double]
    /// The container's duration (`format=duration`).
    var duration: Double
    /// The stream's avg_frame_rate: its samples over the sum of their durations (nan when ffprobe gives none).
    var averageFrameRate: Double

    init(path: String) throws {
        let tool = try #require(ExternalTool.ffprobe)
        struct Output: Decodable {
            struct Frame: Decodable { var pts_time: String? }
            struct Stream: Decodable { var avg_frame_rate: String? }
            struct Format: Decodable { var duration: String?; var start_time: String? }
            var frames: [Frame]?
            var streams: [Stream]?
            var format: Format?
        }
        let entries = "frame=pts_time:stream=avg_frame_rate:format=duration,start_time"
        let all = try JSONDecoder().decode(Output.self, from: tool.run([
            "-v", "quiet", "-select_streams", "v:0", "-show_entries", entries, "-of", "json", path,
        ]))
        let keys = try JSONDecoder().decode(Output.self, from: tool.run([
            "-v", "quiet", "-select_streams", "v:0", "-skip_frame", "nokey", "-show_entries", "frame=pts_time",
            "-of", "json", path,
        ]))
        // From the movie's start (a video that starts after its audio starts after 0, as in a player).
        let start = Double(all.format?.start_time ?? "") ?? 0
        let times = { (output: Output) in
            (output.frames ?? []).compactMap { $0.pts_time.flatMap(Double.init) }.map { $0 - start }.sorted()
        }
        frameTimes = times(all)
        keyframeTimes = times(keys)
        duration = Double(all.format?.duration ?? "") ?? .nan
        let ratio = (all.streams?.first?.avg_frame_rate ?? "").split(separator: "/").compactMap { Double($0) }
        averageFrameRate = ratio.count == 2 && ratio[1] > 0 ? ratio[0] / ratio[1] : .nan
    }

    /// Every video packet's pts_time in decode order (hidden pre-roll is negative).
    static func packetTimes(_ path: String) throws -> [Double] {
        let tool = try #require(ExternalTool.ffprobe)
        let csv = try tool.run([
            "-v", "quiet", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", path,
        ])
        return String(decoding: csv, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }
    }

    /// The latest packet time of the first video stream (its last sample's presentation time).
    static func lastPacketTime(_ path: String) throws -> Double {
        let tool = try #require(ExternalTool.ffprobe)
        let csv = try tool.run([
            "-v", "quiet", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", path,
        ])
        return String(decoding: csv, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }.max() ?? 0
    }

    /// Where a player's seek to `target` lands: the last keyframe shown at or before it, or the first
    /// frame when none is that early.
    func landing(_ target: Double) -> Double {
        keyframeTimes.last { $0 <= target + 0.0005 } ?? frameTimes[0]
    }

    /// The frame number shown at `time`: the last whose time is at or before it. The 50 µs allow for the
    /// microseconds ffprobe prints and seconds computed from a frame's own; not more, since at 29.97 fps a
    /// frame starts 0.1 ms after 0:00.10 and is not yet shown then.
    func frame(at time: Double) -> Int {
        max((frameTimes.lastIndex { $0 <= time + 0.000_05 } ?? 0), 0)
    }
}
