import MediaFormats

/// A file's capture time as resolved: the time (nil when no source gave a believable one) and the times
/// passed over as nonsense on the way (`EXIF 1970`), for the import's summary and `info`.
public struct ResolvedCaptureTime: Sendable, Equatable {
    public var time: CaptureTime?
    /// Each nonsense time passed over, as `SOURCE WHY` ("EXIF 1970", "camera 1980-01-01").
    public var setAside: [String]

    public init(time: CaptureTime?, setAside: [String] = []) {
        self.time = time
        self.setAside = setAside
    }
}

/// What a listing shows for a file's time: the capture time, and whether it is only the camera's date
/// standing in for one not read yet (the listing marks it).
public struct ShownCaptureTime: Sendable, Equatable {
    public var time: CaptureTime?
    public var pending: Bool

    public init(time: CaptureTime?, pending: Bool) {
        self.time = time
        self.pending = pending
    }
}
