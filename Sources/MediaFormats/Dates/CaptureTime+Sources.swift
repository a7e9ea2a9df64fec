import Foundation

extension ExifInfo {
    /// DateTimeOriginal with its sub-seconds and offset; the IFD0 date when there is no original.
    public var captureTime: CaptureTime? {
        if let original = dateTimeOriginal,
            let time = CaptureTime.exif(original, subSeconds: subSecTimeOriginal, offset: offsetTimeOriginal)
        {
            return time
        }
        return dateTime.flatMap { CaptureTime.exif($0) }
    }
}

extension MovieDates {
    /// The movie header's creation time as a capture time. UTC by the specification, but some cameras write
    /// their local time there: when the header's time read as a clock time matches the camera's own date
    /// for the file as written (within the clip's length and two minutes, the camera's date often being
    /// the clip's end), while read as UTC it does not, it is taken as local time without a zone.
    public func movieHeaderTime(besides listed: CaptureTime?, zone: TimeZone = .current) -> CaptureTime? {
        guard let creation = movieHeaderCreation else { return nil }
        let utc = CaptureTime(instant: creation, source: .movieHeader)
        guard let listed else { return utc }
        let tolerance = (duration ?? 0) + 120
        let listedClock = listed.clock(in: zone)
        let asWritten = creation.timeIntervalSince1970
        let asUTC = utc.clock(in: zone)
        if abs(asWritten - listedClock) <= tolerance && abs(asUTC - listedClock) > tolerance {
            return CaptureTime(wall: asWritten, zone: .unknown, source: .movieHeader)
        }
        return utc
    }
}

