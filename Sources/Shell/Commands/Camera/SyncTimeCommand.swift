import CommandKit
import Foundation
import MediaManager
import PTP
import TerminalKit

/// sync-time: sets the camera's clock (DateTime) from this computer's, in local time as cameras keep it.
struct SyncTimeCommand: ShellCommand {
    let spec = CommandSpec(
        "sync-time", area: .camera,
        summary: "set the camera's clock from this computer's",
        details: "Sets the camera's date and time (the DateTime property) to this computer's local time.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let camera = try shell.requireCamera().camera
        guard camera.propertyCodes.contains(.dateTime) else {
            throw CommandError("this camera has no clock to set (its DeviceInfo lists no DateTime property)")
        }
        let before = try camera.describeProperty(.dateTime)
        guard before.writable else { throw CommandError("this camera's clock is read-only") }
        try camera.setProperty(.dateTime, to: .string(PTPDateTime.format(Date())))
        let after = try camera.describeProperty(.dateTime)
        let meaning = PropertyMeaning.of(.dateTime)
        let shown = { SafeText.display(meaning.display($0)) }
        shell.output.note("datetime \(shown(after.current)) (was \(shown(before.current)))")
        return .success
    }
}
