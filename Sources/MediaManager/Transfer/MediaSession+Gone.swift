import Failures
import POSIX
import PTP

extension MediaSession {
    /// After a failed download: true when the camera no longer answers (one cheap request, GetDeviceInfo), so
    /// that a batch stops rather than failing every file that is left. Any other failure: false, no request.
    public func isGone(after error: Error) -> Bool {
        guard case DownloadError.interrupted = error else { return false }
        do {
            _ = try camera.session.getDeviceInfo()
            return false
        } catch {
            return error.failureCategory == .disconnected
        }
    }
}
