import MediaManager

/// mode, capture (shoot).
extension Interpreter {
    /// No camera this program reaches has modes yet (the virtual camera, card folders, PTP/IP cameras
    /// opened here are always ready to download); when MediaManager learns a camera's modes, they go here.
    func mode(_ invocation: Invocation) throws {
        _ = try requireCamera()
        throw CommandError("not supported by this camera")
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
}
