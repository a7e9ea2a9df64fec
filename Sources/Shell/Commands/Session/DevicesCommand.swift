import CommandKit
import TerminalKit

/// devices: the USB cameras attached, with the URL that opens each.
struct DevicesCommand: ShellCommand {
    let spec = CommandSpec(
        "devices", area: .session, summary: "list the cameras that can be opened",
        details: "Lists the USB cameras attached to this computer, with the URL that opens each.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let cameras = DeviceDiscovery.usbCameras()
        guard !cameras.isEmpty else {
            shell.output.line("no USB cameras found")
            return .success
        }
        let rows = cameras.map { [SafeText.display($0.url), SafeText.display($0.description)] }
        for line in ColumnTable(rows: rows).lines() { shell.output.line(line) }
        return .success
    }
}
