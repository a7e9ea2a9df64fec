import Foundation
import MediaFormats
import PTPFacts

/// Portrait or landscape, as the video is shown (after its rotation).
public enum Orientation: String, Sendable {
    case landscape, portrait
}

/// What the catalog knows of a video without downloading it.
public struct VideoDetails: Equatable, Sendable {
    public var duration: Double?
    public var width: Int?
    public var height: Int?
    /// The rate the video was recorded at (ffprobe's avg_frame_rate: the average for a variable rate).
    public var framesPerSecond: Double?
    /// For a variable-rate video, its lowest and highest rate; nil for a constant rate or when unknown (a
    /// camera's listing says one number).
    public var frameRateRange: ClosedRange<Double>?
    public var codec: String?
    public var orientation: Orientation? {
        guard let width, let height else { return nil }
        return height > width ? .portrait : .landscape
    }
    public init(
        duration: Double? = nil, width: Int? = nil, height: Int? = nil, framesPerSecond: Double? = nil,
        frameRateRange: ClosedRange<Double>? = nil, codec: String? = nil
    ) {
        self.duration = duration
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.frameRateRange = frameRateRange
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
    /// What it holds, from its name; `.other` for folders.
    public var kind: MediaKind
    public var isFolder: Bool
    public var format: ObjectFormatCode
    /// True size, 64-bit.
    public var size: UInt64
    public var captureDate: Date?
    /// What the listing or the file's header said of a video; nil for photos and folders.
    public var video: VideoDetails? {
        get { videoBox?.details }
        set { videoBox = newValue.map(VideoBox.init) }
    }
    /// The video's details behind one reference: five optionals inline would make every record of a card
    /// of 100,000 photos 70 bytes larger (and every copy of one slower) for the few videos that have them.
    private var videoBox: VideoBox?
    /// The name the device gave, when the catalog had to change it (a repeated or unusable name); `name`
    /// is then the one shown and matched.
    public var deviceName: String? = nil
    /// What the device's ObjectInfo said of a thumbnail: false for thumb format 0 or size 0, nil when
    /// unknown (listed through a property list, which does not say).
    public var thumbnailListed: Bool? = nil

    public init(
        id: UInt32, storageID: UInt32, parentID: UInt32, name: String, folder: String, kind: MediaKind, isFolder: Bool,
        format: ObjectFormatCode, size: UInt64, captureDate: Date?, video: VideoDetails?, deviceName: String? = nil,
        thumbnailListed: Bool? = nil
    ) {
        self.id = id
        self.storageID = storageID
        self.parentID = parentID
        self.name = name
        self.folder = folder
        self.kind = kind
        self.isFolder = isFolder
        self.format = format
        self.size = size
        self.captureDate = captureDate
        self.deviceName = deviceName
        self.thumbnailListed = thumbnailListed
        self.video = video
    }

    package var hasNoDeviceThumbnail: Bool { thumbnailListed == false }

    public var path: String { folder.isEmpty ? name : folder + "/" + name }

    /// Name without its extension, for grouping sidecars: "DJI_0042" for "DJI_0042.MP4".
    public var stem: String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    public static func == (a: MediaFile, b: MediaFile) -> Bool {
        a.id == b.id && a.isFolder == b.isFolder && a.name == b.name && a.size == b.size && a.folder == b.folder && a.parentID == b.parentID
            && a.captureDate == b.captureDate && a.video == b.video
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}


/// An immutable box for `MediaFile.video` (a new box on every change, so copies never share a change).
private final class VideoBox: Sendable {
    let details: VideoDetails
    init(_ details: VideoDetails) { self.details = details }
}
