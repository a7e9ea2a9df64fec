import Foundation
import PTP

/// What kind of media a file holds, from its name (and the device's format code where the name says nothing).
public enum MediaKind: String, Sendable, CaseIterable {
    case jpeg = "JPEG", raw = "RAW", tiff = "TIFF", heif = "HEIF", png = "PNG"
    case mp4 = "MP4", mov = "MOV", proxy = "LRF", subtitle = "SRT", thumbnail = "THM", audio = "AUDIO"
    case other = "other", folder = "folder"

    public init(fileName: String, format: ObjectFormatCode? = nil) {
        let ext = fileName.contains(".") ? String(fileName.split(separator: ".").last!).lowercased() : ""
        switch ext {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "raf", "orf", "rw2", "pef", "srw", "x3f", "3fr", "iiq":
            self = .raw
        case "tif", "tiff": self = .tiff
        case "heic", "heif", "hif": self = .heif
        case "png": self = .png
        case "mp4", "m4v": self = .mp4
        case "mov": self = .mov
        case "lrf": self = .proxy
        case "srt": self = .subtitle
        case "thm": self = .thumbnail
        case "wav", "mp3", "aac", "m4a": self = .audio
        default:
            switch format {
            case .association?: self = .folder
            case .exifJPEG?: self = .jpeg
            case .dng?: self = .raw
            case .tiff?, .tiffEP?: self = .tiff
            case .mp4Container?: self = .mp4
            case .quickTime?: self = .mov
            default: self = .other
            }
        }
    }

    public var isVideo: Bool { self == .mp4 || self == .mov || self == .proxy }
    public var isImage: Bool { self == .jpeg || self == .raw || self == .tiff || self == .heif || self == .png }
    /// Files that travel with a main file of the same stem.
    public var isSidecar: Bool { self == .proxy || self == .subtitle || self == .thumbnail }
}

/// Portrait or landscape, as the video is shown (after its rotation).
public enum Orientation: String, Sendable {
    case landscape, portrait
}

/// What the catalog knows of a video without downloading it.
public struct VideoDetails: Equatable, Sendable {
    public var duration: Double?
    public var width: Int?
    public var height: Int?
    public var framesPerSecond: Double?
    public var codec: String?
    public var orientation: Orientation? {
        guard let width, let height else { return nil }
        return height > width ? .portrait : .landscape
    }
    public init(duration: Double? = nil, width: Int? = nil, height: Int? = nil, framesPerSecond: Double? = nil, codec: String? = nil) {
        self.duration = duration
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.codec = codec
    }
}

/// One file or folder on the camera's card, as listed.
public struct MediaFile: Equatable, Hashable, Sendable, Identifiable {
    /// The device's handle for the object.
    public var id: UInt32
    public var storageID: UInt32
    /// Handle of the folder it sits in (0 at the root).
    public var parentID: UInt32
    /// The name as the device gives it (untrusted: sanitize before using it locally).
    public var name: String
    /// Folder path from the card's root, "" at the root, e.g. "DCIM/100MEDIA".
    public var folder: String
    public var kind: MediaKind
    public var format: ObjectFormatCode
    /// True size, 64-bit.
    public var size: UInt64
    public var captureDate: Date?
    public var video: VideoDetails?

    public var isFolder: Bool { kind == .folder }
    public var path: String { folder.isEmpty ? name : folder + "/" + name }

    /// Name without its extension, for grouping sidecars: "DJI_0042" for "DJI_0042.MP4".
    public var stem: String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    public static func == (a: MediaFile, b: MediaFile) -> Bool {
        a.id == b.id && a.name == b.name && a.size == b.size && a.folder == b.folder && a.parentID == b.parentID
            && a.captureDate == b.captureDate && a.video == b.video
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

