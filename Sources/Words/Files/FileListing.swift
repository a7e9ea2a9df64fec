import CameraFacts
import Foundation
import MediaFormats
import TextKit

/// The ways `ls` shows camera files: names in columns, a long table, or JSON for programs.
public struct FileListing {
    public let dates: DateText
    /// Each file's capture time as the listing shows it (`CaptureTimeTable`).
    public var times = CaptureTimeTable()

    public init(dates: DateText) {
        self.dates = dates
    }

    /// How entries are ordered.
    public struct Order {
        public var byTime = false
        public var bySize = false
        public var reversed = false

        public init() {}
    }

    /// Names (folders ending in `/`) in columns that fit the terminal, or one per line off a terminal or
    /// with `onePerLine` (`ls -1`). On a terminal names a shell would split are quoted as GNU `ls` quotes
    /// them (`'My Clip.MP4'`); off a terminal they are printed as they are, for scripts.
    public func short(_ entries: [RemoteEntry], columns: Int?, onePerLine: Bool = false) -> [String] {
        let names = Self.names(entries, quoted: columns != nil)
        guard let columns, !onePerLine else { return names }
        return ColumnList.lines(names, width: columns)
    }

    /// The names as shown, folders ending in `/`; quoted as `ShellEscapedName` says when `quoted`.
    public static func names(_ entries: [RemoteEntry], quoted: Bool) -> [String] {
        guard quoted else { return entries.map { $0.isFolder ? SafeText.display($0.shown) + "/" : SafeText.display($0.shown) } }
        return ShellEscapedName.column(entries.map(\.shown), suffixes: entries.map { $0.isFolder ? "/" : "" })
    }

    /// `2024-05-01 10:15  12.3 MB  video  0:12 1920x1080 30 fps  DJI_0003.MP4`: date, size, kind,
    /// what the listing told of a video, and the name last (so names with spaces do not break columns).
    /// Names are quoted as in `short` when `quoted` (on a terminal). The video column is left out when no
    /// entry has anything in it; on a terminal `width` cells wide it says less (no rate, then the duration
    /// alone, then nothing) until the rows fit.
    public func long(_ entries: [RemoteEntry], quoted: Bool = false, width: Int? = nil) -> [String] {
        let names = Self.names(entries, quoted: quoted)
        let fixed = entries.map { entry -> [String] in
            let file = entry.file
            let date = file.map { dates.listing(times.shown($0)) } ?? "-"
            if entry.isFolder { return [date, "-", "folder"] }
            return [date, HumanReadable.size(file?.size ?? 0), Self.kind(of: file)]
        }
        let videos = entries.map { $0.isFolder ? nil : $0.file?.video }
        let detail = Self.videoDetail(videos, fitting: width.map { $0 - Self.width(of: fixed, names: names) })
        let rows = fixed.indices.map { index -> [String] in
            guard let detail else { return fixed[index] + [names[index]] }
            return fixed[index] + [Self.videoSummary(videos[index], detail), names[index]]
        }
        return ColumnTable(rows: rows, alignments: [.left, .right]).lines()
    }

    /// How much of a video `ls -l` shows: all it knows, less as the terminal narrows.
    public enum VideoDetail: CaseIterable, Sendable {
        /// `0:12 1920x1080 30 fps`
        case full
        /// `0:12 1920x1080`
        case withoutRate
        /// `0:12`
        case duration
    }

    /// The most detail whose column (with its gap) fits in `room` cells (any, when nil); nil when no video
    /// has anything to show, or not even its duration fits.
    static func videoDetail(_ videos: [VideoDetails?], fitting room: Int?) -> VideoDetail? {
        guard videos.contains(where: { !videoSummary($0).isEmpty }) else { return nil }
        return VideoDetail.allCases.first { detail in
            guard let room else { return true }
            let column = videos.reduce(0) { max($0, TerminalWidth.of(videoSummary($1, detail))) }
            return column > 0 && column + 2 <= room
        }
    }

    /// The cells the widest row takes without a video column: the fixed columns padded as `ColumnTable`
    /// pads them, two spaces between columns, and the widest name.
    private static func width(of fixed: [[String]], names: [String]) -> Int {
        var widths = [0, 0, 0]
        for row in fixed {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], TerminalWidth.of(cell)) }
        }
        let name = names.reduce(0) { max($0, TerminalWidth.of($1)) }
        return widths.reduce(0, +) + 2 * widths.count + name
    }

    /// True when `long` shows one of `entries` with the camera's date standing in (`~`).
    public func showsPendingDate(_ entries: [RemoteEntry]) -> Bool {
        entries.contains { entry in entry.file.map { !entry.isFolder && times.shown($0).pending } ?? false }
    }

    /// A JSON array with one object per entry; keys sorted, absent facts left out.
    public func json(_ entries: [RemoteEntry]) -> String {
        let objects = entries.map { entry in Self.jsonEntry(entry, dates: dates, time: entry.file.map(times.shown)) }
        return Self.encode(objects)
    }

    public struct JSONEntry: Encodable {
        public var name: String
        public var path: String
        public var type: String
        public var kind: String
        public var format: String?
        public var size: UInt64?
        public var date: String?
        /// Where `date` came from: EXIF, QuickTime, MP4, SRT, camera, file.
        public var dateSource: String?
        /// True when `date` is the camera's, standing in for the file's own time not read yet.
        public var datePending: Bool?
        public var duration: Double?
        public var width: Int?
        public var height: Int?
        public var fps: Double?
        public var codec: String?
    }

    public static func jsonEntry(_ entry: RemoteEntry, dates: DateText, time: ShownCaptureTime?) -> JSONEntry {
        let file = entry.file
        let name = file?.name ?? (entry.path.split(separator: "/").last.map(String.init) ?? "/")
        var object = JSONEntry(
            name: name, path: "/" + entry.path, type: entry.isFolder ? "folder" : "file",
            kind: entry.isFolder ? "folder" : kind(of: file))
        if !entry.isFolder, let file {
            object.format = file.kind.rawValue
            object.size = file.size
            object.duration = file.video?.duration
            object.width = file.video?.width
            object.height = file.video?.height
            object.fps = file.video?.framesPerSecond
            object.codec = file.video?.codec
        }
        if let time, let captured = time.time {
            object.date = dates.json(captured)
            object.dateSource = captured.source.rawValue
            object.datePending = time.pending ? true : nil
        }
        return object
    }

    public static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// One word for what a file is: photo, raw, video, proxy, telemetry, thumbnail, file.
    public static func kind(of file: MediaFile?) -> String {
        guard let file else { return "file" }
        if file.isFolder { return "folder" }
        switch file.kind {
        case .jpeg, .tiff, .heic: return "photo"
        case .raw: return "raw"
        case .mp4, .mov: return "video"
        case .lowResolutionVideo: return "proxy"
        case .telemetry: return "telemetry"
        case .thumbnail: return "thumbnail"
        case .other: return "file"
        }
    }

    /// `0:12 1920x1080 30 fps` from what is known, or "": as much as `detail` asks for.
    public static func videoSummary(_ video: VideoDetails?, _ detail: VideoDetail = .full) -> String {
        guard let video else { return "" }
        var parts: [String] = []
        if let duration = video.duration { parts.append(HumanReadable.duration(seconds: duration)) }
        if detail != .duration, let width = video.width, let height = video.height { parts.append("\(width)x\(height)") }
        if detail == .full, let fps = video.framesPerSecond, fps > 0 { parts.append(frameRate(fps)) }
        return parts.joined(separator: " ")
    }

    /// `30 fps`, `29.97 fps`.
    public static func frameRate(_ fps: Double) -> String {
        rate(fps) + " fps"
    }

    /// `30`, `29.97`: a rate to two decimals, without trailing zeros.
    public static func rate(_ fps: Double) -> String {
        let rounded = (fps * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// What `info` says of a video's rate: `30 fps`, or `variable, 10-30 fps (average 20.34)` when the
    /// container shows it varies (the average is ffprobe's avg_frame_rate, the one number `ls -l` shows).
    public static func frameRate(of video: VideoDetails) -> String? {
        guard let fps = video.framesPerSecond, fps > 0 else { return nil }
        guard let range = video.frameRateRange else { return frameRate(fps) }
        return "variable, \(rate(range.lowerBound))-\(rate(range.upperBound)) fps (average \(rate(fps)))"
    }

    /// Sorts entries as `ls -t`, `-S` and `-r` ask; the catalog's name order otherwise.
    public static func sorted(_ entries: [RemoteEntry], _ order: Order, times: CaptureTimeTable = CaptureTimeTable()) -> [RemoteEntry] {
        var result = entries
        if order.bySize {
            result = stableSorted(result) { ($0.file?.size ?? 0) > ($1.file?.size ?? 0) }
        } else if order.byTime {
            func instant(_ entry: RemoteEntry) -> Date {
                entry.file.flatMap { times.shown($0).time?.instant() } ?? .distantPast
            }
            result = stableSorted(result) { instant($0) > instant($1) }
        }
        if order.reversed { result.reverse() }
        return result
    }

    private static func stableSorted(
        _ entries: [RemoteEntry], by before: (RemoteEntry, RemoteEntry) -> Bool
    ) -> [RemoteEntry] {
        entries.enumerated().sorted { a, b in
            if before(a.element, b.element) { return true }
            if before(b.element, a.element) { return false }
            return a.offset < b.offset
        }.map(\.element)
    }
}
