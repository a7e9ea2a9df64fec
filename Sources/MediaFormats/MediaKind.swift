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
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else {
            self = .other
            return
        }
        switch fileName[fileName.index(after: dot)...].lowercased() {
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
    public var isVideo: Bool { [.mp4, .mov, .lowResolutionVideo].contains(self) }

    /// A file that accompanies another (proxy, telemetry, thumbnail) rather than being media of its own.
    public var isSidecar: Bool { [.lowResolutionVideo, .telemetry, .thumbnail].contains(self) }
}
