import CommandKit
import TerminalKit
import Words

/// devices [--wifi]: the USB cameras attached and the Wi-Fi cameras announcing themselves, with the URL
/// that opens each (`open` completes them afterwards).
struct DevicesCommand: ShellCommand {
    let spec = CommandSpec(
        "devices", area: .session,
        options: [OptionSpec("wifi", long: "wifi", "ask only the network (SSDP and mDNS), not USB")],
        summary: "list the cameras that can be opened",
        details: """
            Lists the USB cameras attached to this computer and the Wi-Fi cameras that announce themselves on \
            the local network (SSDP and mDNS _ptp._tcp, asked for about 2 seconds), with the URL that opens \
            each; after it, 'open' completes those URLs on Tab.
            """,
        examples: ["devices", "devices --wifi"])

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let (lines, found) = DeviceDiscovery.lines(wifiOnly: invocation.has("wifi"), environment: shell.environment)
        for line in lines { shell.output.line(line) }
        shell.state.discoveredURLs = found.map(\.url)
        return .success
    }
}
