import CommandKit
import MediaManager
import TerminalKit

/// mode [download|shoot]: shows or switches the camera's work mode (shooting, or giving access to the card),
/// where it has one.
struct ModeCommand: ShellCommand {
    let spec = CommandSpec(
        "mode", area: .camera, arguments: [ArgumentSpec("download|shoot", .choice(["download", "shoot"]), .optional)],
        summary: "show or change the camera mode",
        details: "Shows the camera's mode, or switches it between downloading files and shooting.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let camera = try shell.requireCamera().camera
        guard camera.hasWorkMode else { throw CommandError("not supported by this camera") }
        guard let word = invocation.arguments.first else {
            shell.cameraMode = try camera.workMode()
            shell.output.line("mode \(shell.cameraMode?.rawValue ?? "unknown")")
            return .success
        }
        guard let wanted = CameraMode(rawValue: word.text) else { return .success }  // the spec allows only these
        try camera.setWorkMode(wanted)
        shell.cameraMode = wanted
        if wanted == .shoot {
            shell.output.note("mode shoot: the camera's files cannot be read or deleted until 'mode download'")
        } else {
            shell.output.note("mode download")
        }
        return .success
    }
}
