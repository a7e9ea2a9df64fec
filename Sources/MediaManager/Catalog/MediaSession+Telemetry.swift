import MediaFormats
import POSIX

/// The telemetry beside a drone clip (its `.SRT`), read once per session and file and kept for `status`.
public final class TelemetryCache: Sendable {
    /// The largest `.SRT` read (an hour at 30 cues a second is about 25 MB).
    public static let largest: UInt64 = 64 << 20
    private let tracks = Locked<[UInt32: (size: UInt64, track: TelemetryTrack)]>([:])

    func track(of srt: MediaFile, reading: () throws -> [UInt8]) rethrows -> TelemetryTrack {
        if let kept = tracks.withLock({ $0[srt.id] }), kept.size == srt.size { return kept.track }
        let track = TelemetryTrack(srt: try reading())
        tracks.withLock { $0[srt.id] = (srt.size, track) }
        return track
    }
}

extension MediaSession {
    /// The `.SRT` telemetry of `video` (the sidecar of its group), nil when it has none or one larger than
    /// `TelemetryCache.largest`. Read whole once, then kept.
    public func telemetry(for video: MediaFile) throws -> TelemetryTrack? {
        guard let srt = catalog.group(of: video).first(where: { $0.kind == .telemetry }), srt.size <= TelemetryCache.largest
        else { return nil }
        return try telemetryCache.track(of: srt) { try byteSource(for: srt).read(offset: 0, count: Int(srt.size)) }
    }
}
