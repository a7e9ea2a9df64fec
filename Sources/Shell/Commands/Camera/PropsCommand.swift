import CommandKit
import Foundation
import MediaManager
import PTP
import TerminalKit
import Words

/// props [--json]: lists the camera's device properties: name, current value decoded, allowed values, and
/// whether it can be set.
struct PropsCommand: ShellCommand {
    let spec = CommandSpec(
        "props", area: .camera, options: [.json],
        summary: "list the camera's settings",
        details: "Lists the device properties the camera reports (battery, clock, exposure...): the value by its "
            + "meaning, the values allowed, and whether 'prop NAME VALUE' can set it. Unknown vendor properties "
            + "are listed by code.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let camera = try shell.requireCamera().camera
        // Some devices (media players, QEMU's usb-mtp, card readers) have no settings to show: say so.
        guard !camera.propertyCodes.isEmpty else {
            if invocation.has(.json) {
                shell.output.line("[]")
            } else {
                shell.output.note(PropertyWords.noProperties)
            }
            return .success
        }
        guard camera.canDescribeProperties else {
            throw CommandError(PropertyWords.cannotDescribe(camera.propertyCodes))
        }
        var rows: [[String]] = []
        var entries: [PropertyJSON] = []
        var failures = 0
        var leftOut: [DevicePropertyCode] = []
        for code in camera.propertyCodes {
            let meaning = PropertyMeaning.of(code)
            let description: DevicePropertyDescription
            do {
                description = try camera.describeProperty(code)
            } catch let error as PTPError where Self.refusals.contains(error.responseCode) {
                leftOut.append(code)
                continue
            } catch {
                shell.report("props: \(meaning.name): \(error)")
                failures += 1
                continue
            }
            rows.append([
                meaning.name, SafeText.display(meaning.display(description.current)), description.writable ? "rw" : "ro",
                SafeText.display(meaning.allowed(description)),
            ])
            entries.append(PropertyJSON(meaning: meaning, description: description))
        }
        if invocation.has(.json) {
            shell.output.line(PropertyJSON.encode(entries))
        } else {
            for line in ColumnTable(rows: rows).lines() { shell.output.line(line) }
        }
        // On standard error, so that --json stays one document.
        if !leftOut.isEmpty { shell.report(PropertyWords.leftOut(leftOut), severity: .notice) }
        return .failed(if: failures)
    }

    /// How a camera says it will not describe a property it listed: not a failure of `props`.
    static let refusals: Set<ResponseCode?> = [.devicePropNotSupported, .operationNotSupported, .parameterNotSupported]
}
