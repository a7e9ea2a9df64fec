import CommandKit
import Connectors
import MediaManager
import TerminalKit
import Words

/// open URL: opens the camera at URL and reads its file list, in place of the camera that is open; an open
/// that fails or is interrupted leaves that one as it was.
struct OpenCommand: ShellCommand {
    let spec = CommandSpec(
        "open", area: .session,
        options: [
            OptionSpec("release", long: "release",
                "first ask gvfs to let go of the USB camera (gio mount -u); never stops another program")
        ],
        arguments: [ArgumentSpec("URL", .cameraURL)],
        summary: "open a camera",
        details: """
            Opens the camera at URL in place of the current one, which stays open, with its folder, \
            selection and edit mode, when URL cannot be opened (or Ctrl-C stops the open). URLs: usb:, usb:BUS,ADDR, usb:VVVV:PPPP, \
            usb:serial=SERIAL, usb:model=NAME (part of the model name, any case), \
            ptpip:HOST[:PORT[:EVENTPORT]], dir:PATH, sim: and sim:PATH. When a usb: URL matches several \
            cameras ('devices' lists them), the prompt opens the first and names the others; a script \
            stops with the list. A USB camera the desktop holds (gvfs's gphoto2 or MTP backend) is named \
            with its pid; --release asks gvfs to unmount it before opening. Refused while the card is \
            mounted from this prompt (`mount DIR`): `umount` it first.
            """,
        examples: ["open usb:", "open --release usb:", "open ptpip:192.168.1.1", "open dir:/media/$USER/CARD", "open sim:"])

    func run(_ invocation: Invocation, in shell: any SessionContext) throws -> CommandOutcome {
        guard let text = invocation.arguments.first?.text else { return .success }
        let url = try CameraURL(parsing: text)
        try shell.refuseWhileJobsRun("open")
        try refuseWhileMounted()
        if invocation.has("release") {
            do {
                let release = try CameraConnector.releaseUSB(url)
                for line in release.lines { shell.output.note(SafeText.display(line)) }
            } catch {
                throw CommandError("open --release \(URLText.inMessage(url.description)): \(Interpreter.message(for: error))")
            }
        }
        do {
            try shell.open(url)
        } catch let interrupted as Interrupted {
            throw interrupted
        } catch {
            throw CommandError("cannot open \(URLText.inMessage(url.description)): \(Interpreter.message(for: error))")
        }
        if let media = shell.media {
            shell.output.note(SessionWords.opened(media.camera.summary, fileCount: media.catalog.fileCount))
        }
        if let note = shell.openNote { shell.output.note(note) }
        return .success
    }
}
