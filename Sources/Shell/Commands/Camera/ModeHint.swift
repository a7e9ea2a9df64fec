import Failures
import MediaManager
import POSIX

extension CommandContext {
    /// When a failure is the camera saying it is busy because it is in shoot mode, how to get out of it.
    func modeHint(for error: Error) -> String {
        guard error.failureCategory == .busy, let camera = media?.camera, camera.hasWorkMode, (try? camera.workMode()) == .shoot else {
            return ""
        }
        cameraMode = .shoot
        return " (the camera is in shoot mode: 'mode download' gives access to its files)"
    }
}
