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
        // The extension's bytes, lowercased, packed into one integer (at most 4 bytes, none of them 0): a
        // switch on integers, not on strings. Each case below is its extensions packed so ("jpg" 0x6A7067).
        var packed: UInt32 = 0
        var length = 0
        for byte in utf8[utf8.index(after: dot)...] {
            length += 1
            guard length <= 4, byte != 0 else {
                self = .other
                return
            }
            packed = packed << 8 | UInt32((65...90).contains(byte) ? byte | 0x20 : byte)
        }
        switch packed {
        case 0x6A7067, 0x6A706567, 0x6A7065:  // jpg, jpeg, jpe
            self = .jpeg
        case 0x646E67, 0x637232, 0x637233, 0x6E6566, 0x6E7277, 0x617277,  // dng, cr2, cr3, nef, nrw, arw
            0x737266, 0x737232, 0x726166, 0x6F7266, 0x727732, 0x706566, 0x737277:  // srf, sr2, raf, orf, rw2, pef, srw
            self = .raw
        case 0x746966, 0x74696666:  // tif, tiff
            self = .tiff
        case 0x68656963, 0x68656966, 0x686966:  // heic, heif, hif
            self = .heic
        case 0x6D7034, 0x6D3476:  // mp4, m4v
            self = .mp4
        case 0x6D6F76:  // mov
            self = .mov
        case 0x6C7266:  // lrf
            self = .lowResolutionVideo
        case 0x737274:  // srt
            self = .telemetry
        case 0x74686D:  // thm
            self = .thumbnail
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
