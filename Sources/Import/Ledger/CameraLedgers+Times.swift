import MediaFormats
import MediaManager

extension CameraLedgers {
    /// Gives `session` the capture times (before any shift) this ledger recorded for `files`, for the
    /// kinds whose own time is the one the import used (photos and videos leading their groups).
    public func lendTimes(of files: [MediaFile], to session: MediaSession) {
        for file in files where [.jpeg, .mp4, .mov].contains(file.kind) && session.captureTimes.known(file) == nil {
            if let time = entry(for: file)?.unshiftedTime {
                session.captureTimes.remember(ResolvedCaptureTime(time: time), for: file)
            }
        }
    }
}
