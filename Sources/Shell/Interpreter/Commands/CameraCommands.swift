import MediaManager
import PTP

/// mode, capture (shoot).
extension Interpreter {
    /// Shows or switches the camera's work mode (shooting, or giving access to the card), where it has one.
    func mode(_ invocation: Invocation) throws {
        let camera = try requireCamera().camera
        guard camera.hasWorkMode else { throw CommandError("not supported by this camera") }
        guard let word = invocation.arguments.first else {
            output.line("mode \(try camera.workMode()?.rawValue ?? "unknown")")
            return
        }
        guard let wanted = CameraMode(rawValue: word.text) else { return }  // the table allows only these
        try camera.setWorkMode(wanted)
        if wanted == .shoot {
            output.line("mode shoot: the camera's files cannot be read or deleted until 'mode download'")
        } else {
            output.line("mode download")
        }
    }

    func capture() throws {
        let session = try requireCamera()
        guard session.camera.summary.canCapture else { throw CommandError("not supported by this camera") }
        let files = try session.capture(timeout: state.settings.timeout)
        guard !files.isEmpty else {
            output.line("the camera took a picture but reported no new file ('refresh' reads the list again)")
            return
        }
        for file in files {
            output.line("captured \(RemotePath.display(file.path)) (\(HumanReadable.size(file.size)))")
        }
    }

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
