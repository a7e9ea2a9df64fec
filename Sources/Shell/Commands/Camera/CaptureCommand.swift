import MediaManager

/// capture (shoot): asks the camera to take a photo and lists the files it reported.
struct CaptureCommand: ShellCommand {
    let spec = CommandSpec(
        "capture", aliases: ["shoot"], area: .camera, summary: "take a photo",
        details: "Asks the camera to take a photo; the new file appears in the list.")

    func run(_ invocation: Invocation, in shell: Interpreter) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        guard session.camera.summary.canCapture else { throw CommandError("not supported by this camera") }
        let interrupt = shell.interrupt
        let timeout = shell.state.settings.timeout
        let result = try shell.interruptibly(session) {
            try session.capture(timeout: timeout, cancelled: { interrupt.isPending })
        }
        if result.foundByListing {
            let what = result.cameraSentNoEvents ? "no events" : "no ObjectAdded event"
            shell.output.line("the camera sent \(what); its folders were listed again to find the new file")
        }
        guard !result.files.isEmpty else {
            shell.output.line("the camera took a picture but reported no new file ('refresh' reads the list again)")
            return .success
        }
        for file in result.files {
            shell.output.line("captured \(RemotePath.display(file.path)) (\(HumanReadable.size(file.size)))")
        }
        return .success
    }
}
