import CommandKit
import Connectors
import MediaManager
import PTP
import TerminalKit
import Words

/// summary: the camera's model, serial number, storages and abilities.
struct SummaryCommand: ShellCommand {
    let spec = CommandSpec(
        "summary", area: .session, summary: "describe the camera and its card",
        details: "Shows the camera's model, serial number, storages and what it can do.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        let storages = (try? session.camera.storages()) ?? []
        let identity = session.url.isWiFi ? shell.wifiIdentityInUse : nil
        for line in SummaryWords.lines(session, storages: storages, identity: identity) { shell.output.note(line) }
        return .success
    }
}
