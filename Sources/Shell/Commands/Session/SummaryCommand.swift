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
        let lines = SummaryWords.lines(
            session.camera.summary, url: session.url, usbLink: session.camera.usbLink, catalog: session.catalog.status,
            storages: storages, identity: identity.map { (guid: $0.guidText, name: $0.name) })
        for line in lines { shell.output.note(line) }
        return .success
    }
}
