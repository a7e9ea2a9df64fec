import MediaManager
import PTP

extension Interpreter {
    /// When a failure is the camera saying it is busy because it is in shoot mode, how to get out of it.
    func modeHint(for error: Error) -> String {
        let busy: Bool
        if case PTPError.response(let code, _) = error {
            busy = code == .deviceBusy
        } else {
            busy = Self.message(for: error).contains(ResponseCode.deviceBusy.description)
        }
        guard busy, let camera = media?.camera, camera.hasWorkMode, (try? camera.workMode()) == .shoot else {
            return ""
        }
        return " (the camera is in shoot mode: 'mode download' gives access to its files)"
    }
}
