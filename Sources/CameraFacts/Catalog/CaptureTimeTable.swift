import MediaFormats

/// The capture times a listing shows, by file: those read (within the listing's budget) or known, else
/// the listed date (marked pending where the file may say more).
public struct CaptureTimeTable: Sendable {
    private var byFile: [UInt64: ShownCaptureTime] = [:]

    public init() {}

    /// The times given, by file.
    public init(_ times: [(MediaFile, ShownCaptureTime)]) {
        for (file, time) in times { byFile[Self.key(file)] = time }
    }

    public func shown(_ file: MediaFile) -> ShownCaptureTime {
        if let time = byFile[Self.key(file)] { return time }
        return ShownCaptureTime(time: file.captureDate.map { CaptureTime(listed: $0, source: .camera) }, pending: false)
    }

    static func key(_ file: MediaFile) -> UInt64 { UInt64(file.storageID) << 32 | UInt64(file.id) }
}
