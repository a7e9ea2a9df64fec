import CommandKit
import Foundation
import MediaManager
import PTP
import TerminalKit
import Words

/// prop NAME [VALUE]: shows one device property, or sets it (SetDevicePropValue) after checking VALUE
/// against the values the camera allows.
struct PropCommand: ShellCommand {
    let spec = CommandSpec(
        "prop", area: .camera, options: [.json],
        arguments: [ArgumentSpec("NAME", .propertyName), ArgumentSpec("VALUE", .propertyValue, .zeroOrMore)],
        summary: "show or set one camera setting",
        details: "Shows the property NAME (as 'props' names it, or its code such as 0x5005), or sets it to VALUE: "
            + "one of the allowed values as 'props' shows them (daylight, 1/250, f/5.6), a number, or for "
            + "datetime a date such as 2026-12-01 10:30:00.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let camera = try shell.requireCamera().camera
        let typedName = invocation.arguments[0].text
        guard !camera.propertyCodes.isEmpty else { throw CommandError(PropertyWords.noProperties) }
        guard camera.canDescribeProperties else {
            throw CommandError(PropertyWords.cannotDescribe(camera.propertyCodes))
        }
        guard let meaning = PropertyMeaning.named(typedName, among: camera.propertyCodes) else {
            let names = camera.propertyCodes.map { PropertyMeaning.of($0).name }.joined(separator: ", ")
            throw CommandError("\(SafeText.display(typedName)): no such property on this camera (it has \(names))")
        }
        var description = try camera.describeProperty(meaning.code)
        if invocation.arguments.count > 1 {
            let typed = invocation.arguments[1...].map(\.text).joined(separator: " ")
            guard description.writable else { throw CommandError("\(meaning.name) is read-only on this camera") }
            guard let value = meaning.parse(typed, for: description) else {
                throw CommandError("\(SafeText.display(typed)) is not allowed for \(meaning.name) (allowed: \(meaning.allowed(description)))")
            }
            try camera.setProperty(meaning.code, to: value)
            description = try camera.describeProperty(meaning.code)
        }
        if invocation.has(.json) {
            shell.output.line(PropertyJSON.encode(PropertyJSON(meaning: meaning, description: description)))
        } else {
            shell.output.line("\(meaning.name) \(SafeText.display(meaning.display(description.current)))")
        }
        return .success
    }
}
