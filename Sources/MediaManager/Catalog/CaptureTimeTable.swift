import MediaFormats

/// The capture times a listing shows, by file: those read (within the listing's budget) or known, else
/// the listed date (marked pending where the file may say more).
public struct CaptureTimeTable: Sendable {
    private var byFile: [UInt64: ShownCaptureTime] = [:]

    public init() {}

    /// The times of `files` in `session`: known ones, and headers read for the listing's budget.
    public init(_ files: [MediaFile], session: MediaSession) {
        let shown = session.listingCaptureTimes(files)
        for (file, time) in zip(files, shown) { byFile[Self.key(file)] = time }
    }

    /// The times of `files` as known now, reading nothing.
    public init(known files: [MediaFile], session: MediaSession) {
        for file in files { byFile[Self.key(file)] = session.shownCaptureTime(file) }
    }

    public func shown(_ file: MediaFile) -> ShownCaptureTime {
        if let time = byFile[Self.key(file)] { return time }
        return ShownCaptureTime(time: file.captureDate.map { CaptureTime(listed: $0, source: .camera) }, pending: false)
    }

    static func key(_ file: MediaFile) -> UInt64 { UInt64(file.storageID) << 32 | UInt64(file.id) }
}
