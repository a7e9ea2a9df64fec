import CameraFacts

extension CaptureTimeTable {
    /// The times of `files` in `session`: known ones, and headers read for the listing's budget.
    public init(_ files: [MediaFile], session: MediaSession) {
        self.init(Array(zip(files, session.listingCaptureTimes(files))))
    }

    /// The times of `files` as known now, reading nothing.
    public init(known files: [MediaFile], session: MediaSession) {
        self.init(files.map { ($0, session.shownCaptureTime($0)) })
    }
}
