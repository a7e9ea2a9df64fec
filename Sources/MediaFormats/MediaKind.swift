/// What kind of media a file on a card holds, judged by its name's extension (case-insensitive).
public enum MediaKind: String, Sendable, CaseIterable {
    case jpeg
    /// Camera raw, DNG included (dng, cr2, cr3, nef, nrw, arw, srf, sr2, raf, orf, rw2, pef, srw).
    case raw
    case tiff
    /// HEIC/HEIF still images.
    case heic
    case mp4
    case mov
    /// A DJI low-resolution proxy video (.LRF), an MP4 inside.
    case lowResolutionVideo
    /// Flight telemetry subtitles (.SRT) written beside a drone video.
    case telemetry
    /// A camera's thumbnail sidecar for a video (.THM), a small JPEG inside.
    case thumbnail
    case other

    /// The kind for a file named `fileName`, such as "DJI_0001.JPG".
    public init(fileName: String) {
        // By bytes, not characters, and without lowercasing the whole name: a listing of 100,000 files
        // asks this for every one of them.
        let utf8 = fileName.utf8
        guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")), dot != utf8.startIndex else {
            self = .other
            return
        }
        let suffix = utf8[utf8.index(after: dot)...]
        guard suffix.count <= 4 else {
            self = .other
            return
        }
        let lowered = String(decoding: suffix.map { (65...90).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        switch lowered {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "dng", "cr2", "cr3", "nef", "nrw", "arw", "srf", "sr2", "raf", "orf", "rw2", "pef", "srw": self = .raw
        case "tif", "tiff": self = .tiff
        case "heic", "heif", "hif": self = .heic
        case "mp4", "m4v": self = .mp4
        case "mov": self = .mov
        case "lrf": self = .lowResolutionVideo
        case "srt": self = .telemetry
        case "thm": self = .thumbnail
        default: self = .other
        }
    }

    /// A still picture (JPEG, raw, TIFF, HEIC).
    public var isImage: Bool { [.jpeg, .raw, .tiff, .heic].contains(self) }

    /// A movie readable by `MovieReader` (MP4, MOV, LRF).
    public var isVideo: Bool {
        switch self {
        case .mp4, .mov, .lowResolutionVideo: true
        default: false
        }
    }

    /// A file that accompanies another (proxy, telemetry, thumbnail) rather than being media of its own.
    public var isSidecar: Bool { [.lowResolutionVideo, .telemetry, .thumbnail].contains(self) }
}
