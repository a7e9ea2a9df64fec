import Foundation
import TestSupport

/// What ffprobe says about a movie: the subset of `-show_streams -show_format` the tests check.
struct ProbeResult: Decodable, Sendable {
    struct Stream: Decodable, Sendable {
        struct SideData: Decodable, Sendable {
            let rotation: Int?
        }
        let index: Int
        let codecType: String
        let codecName: String?
        let codecTagString: String?
        let width: Int?
        let height: Int?
        let rFrameRate: String?
        let avgFrameRate: String?
        let nbFrames: String?
        let duration: String?
        let sampleRate: String?
        let channels: Int?
        let sideDataList: [SideData]?

        enum CodingKeys: String, CodingKey {
            case index, width, height, channels
            case codecType = "codec_type", codecName = "codec_name", codecTagString = "codec_tag_string"
            case rFrameRate = "r_frame_rate", avgFrameRate = "avg_frame_rate", nbFrames = "nb_frames"
            case duration, sampleRate = "sample_rate", sideDataList = "side_data_list"
        }

        /// ffprobe's rotation is counter-clockwise; this is the clockwise rotation the reader reports.
        var clockwiseRotation: Int {
            let counterClockwise = sideDataList?.compactMap(\.rotation).first ?? 0
            return ((-counterClockwise) % 360 + 360) % 360
        }
    }
    struct Format: Decodable, Sendable {
        struct Tags: Decodable, Sendable {
            let majorBrand: String?
            enum CodingKeys: String, CodingKey { case majorBrand = "major_brand" }
        }
        let duration: String?
        let tags: Tags?
    }
    let streams: [Stream]
    let format: Format
}

/// One packet of a stream as ffprobe lists it (decode order).
struct ProbePacket: Sendable {
    let pts: Double
    let dts: Double
    let size: Int
    let position: UInt64
    let isKeyframe: Bool
}

/// What exiftool (`-j -n`) says about a photo.
struct ExifToolResult: Decodable, Sendable {
    let sourceFile: String?
    let make: String?
    let model: String?
    let orientation: Int?
    let dateTimeOriginal: String?
    let imageWidth: Int
    let imageHeight: Int
    let thumbnailOffset: Int?
    let thumbnailLength: Int?
    let exifByteOrder: String?

    enum CodingKeys: String, CodingKey {
        case sourceFile = "SourceFile", make = "Make", model = "Model", orientation = "Orientation", dateTimeOriginal = "DateTimeOriginal"
        case imageWidth = "ImageWidth", imageHeight = "ImageHeight", thumbnailOffset = "ThumbnailOffset"
        case thumbnailLength = "ThumbnailLength", exifByteOrder = "ExifByteOrder"
    }
}

/// Reference values for the fixtures: from ffprobe and exiftool when installed (scripts/setup installs
/// ffmpeg), otherwise from the committed DemoMedia/reference-values.json.
enum Reference {
    static let probeEntries =
        "format=duration:format_tags=major_brand:stream=index,codec_type,codec_name,codec_tag_string,width,"
        + "height,r_frame_rate,avg_frame_rate,nb_frames,duration,sample_rate,channels:stream_side_data=rotation"

    /// The committed file, decoded.
    struct Committed: Decodable {
        struct Video: Decodable {
            let probe: ProbeResult
            let keyframeTimes: [Double]
            enum CodingKeys: String, CodingKey { case probe, keyframeTimes = "keyframe_times" }
        }
        let videos: [String: Video]
        let photos: [ExifToolResult]
    }

    static func committed() throws -> Committed {
        let data = try Data(contentsOf: Fixtures.directory.appendingPathComponent("reference-values.json"))
        return try JSONDecoder().decode(Committed.self, from: data)
    }

    /// ffprobe's view of `name`: live when ffprobe is installed, else the committed values.
    static func probe(_ name: String) throws -> (result: ProbeResult, keyframeTimes: [Double]) {
        if let live = try liveProbe(name) { return live }
        guard let video = try committed().videos[name] else { throw MissingReference(name: name) }
        return (video.probe, video.keyframeTimes)
    }

    static func liveProbe(_ name: String) throws -> (result: ProbeResult, keyframeTimes: [Double])? {
        guard let ffprobe = ExternalTool.ffprobe else { return nil }
        let json = try ffprobe.run(["-v", "error", "-of", "json", "-show_entries", probeEntries, Fixtures.path(name)])
        let result = try JSONDecoder().decode(ProbeResult.self, from: json)
        let keyframes = try livePackets(name, stream: "v:0").filter(\.isKeyframe).map(\.pts)
        return (result, keyframes)
    }

    /// Every packet of one stream from ffprobe, in decode order.
    static func livePackets(_ name: String, stream: String) throws -> [ProbePacket] {
        guard let ffprobe = ExternalTool.ffprobe else { return [] }
        let csv = try ffprobe.run([
            "-v", "error", "-select_streams", stream, "-show_entries", "packet=pts_time,dts_time,size,pos,flags",
            "-of", "csv=p=0", Fixtures.path(name),
        ])
        // csv column order follows ffprobe's packet section: pts_time, dts_time, size, pos, flags.
        return String(decoding: csv, as: UTF8.self).split(separator: "\n").map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return ProbePacket(
                pts: Double(fields[0]) ?? .nan, dts: Double(fields[1]) ?? .nan, size: Int(fields[2]) ?? -1,
                position: UInt64(fields[3]) ?? 0, isKeyframe: fields[4].contains("K"))
        }
    }

    /// exiftool's view of the photo `name`: live when installed, else the committed values.
    static func exif(_ name: String) throws -> ExifToolResult {
        if let live = try liveExif(name) { return live }
        guard let committed = try committed().photos.first(where: { $0.sourceFile == name }) else {
            throw MissingReference(name: name)
        }
        return committed
    }

    static func liveExif(_ name: String) throws -> ExifToolResult? {
        guard let exiftool = ExternalTool.exiftool else { return nil }
        let json = try exiftool.run([
            "-j", "-n", "-Make", "-Model", "-Orientation", "-DateTimeOriginal", "-ImageWidth", "-ImageHeight",
            "-ThumbnailOffset", "-ThumbnailLength", "-ExifByteOrder", Fixtures.path(name),
        ])
        return try JSONDecoder().decode([ExifToolResult].self, from: json).first
    }

    struct MissingReference: Error {
        let name: String
    }
}

/// "30/1" as a number; nil for "0/0".
func rate(_ fraction: String?) -> Double? {
    guard let parts = fraction?.split(separator: "/"), parts.count == 2,
        let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator != 0
    else { return nil }
    return numerator / denominator
}
