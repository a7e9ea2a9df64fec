import CommandKit
import MediaManager
import POSIX
import TerminalKit
import Transfers
import Words

/// capture (shoot) [--fetch] [--to PATTERN]: asks the camera to take a photo, lists the files it reported,
/// and with --fetch brings them home as `import` would (see `TetherDownload`).
struct CaptureCommand: ShellCommand {
    let spec = CommandSpec(
        "capture", aliases: ["shoot"], area: .camera,
        options: [
            OptionSpec(.fetch, long: "fetch", "download the new files"),
            OptionSpec(.to, long: "to", value: ArgumentSpec("PATTERN", .localPath), "where they go, as for 'import' (implies --fetch)"),
        ],
        summary: "take a photo",
        details: """
            Asks the camera to take a photo; the new file appears in the list. A camera that announces nothing \
            (no ObjectAdded) has the folders a new shot can go to listed again, and what appeared is the shot. \
            With --fetch the new files are downloaded as 'import' does: into the download folder, or where \
            PATTERN says (%Y %m %d ... %f, see 'help import'), through NAME.part, each with its capture time, \
            and recorded in the camera's import ledger so 'import' does not bring them again.
            """)

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        try shell.refuseChangesToReadOnlyFolder(session, FolderAccessWords.capturing)
        guard session.camera.summary.canCapture else {
            // A Fujifilm body on Wi-Fi says why: its mode has no remote capture (the shell names the mode).
            if let fuji = session.camera.dialect as? FujiXDialect, let state = fuji.facts?.state, state != .remoteAccess {
                throw FujiModeError.noRemoteCapture(state: state)
            }
            throw CommandError("not supported by this camera")
        }
        let fetching = invocation.has(.fetch) || invocation.value(of: .to) != nil
        // The destination is checked before the shutter fires: a bad pattern takes no picture.
        let download = fetching ? try shell.tetherDownload(invocation, session: session, command: "capture") : nil
        let interrupt = shell.interrupt
        let timeout = shell.state.settings.timeout
        let result = try shell.interruptibly(session) {
            try session.capture(timeout: timeout, cancellation: interrupt.cancellation)
        }
        if result.foundByListing {
            let what = result.cameraSentNoEvents ? "no events" : "no ObjectAdded event"
            shell.output.note("the camera sent \(what); its folders were listed again to find the new file")
        }
        guard !result.files.isEmpty else {
            let text = "the camera took a picture but reported no new file ('refresh' reads the list again)"
            if fetching { throw CommandError(text) }
            shell.output.note(text)
            return .success
        }
        for file in result.files {
            shell.output.note("captured \(RemotePath.display(file.path)) (\(HumanReadable.size(file.size)))")
        }
        guard let download else { return .success }
        // A camera in shoot mode gives no files (DeviceBusy, as a drone's camera does): download mode for the
        // fetch, then back to shooting.
        guard session.camera.isShooting else { return try download.fetch(result.files).result }
        shell.output.note("switched the camera to download mode for the fetch; it goes back to shoot mode after")
        return try download.fetchWhileShooting(result.files).result
    }
}
