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
                shell.output.line(PropertyWords.noProperties)
            }
            return .success
        }
        guard camera.canDescribeProperties else {
            throw CommandError(PropertyWords.cannotDescribe(camera.propertyCodes))
        }
        var rows: [[String]] = []
        var entries: [PropertyJSON] = []
        var failures = 0
        for code in camera.propertyCodes {
            let meaning = PropertyMeaning.of(code)
            let description: DevicePropertyDescription
            do {
                description = try camera.describeProperty(code)
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
        return .failed(if: failures)
    }
}

/// One property in `props --json` and `prop --json`.
struct PropertyJSON: Encodable {
    var name: String
    var code: String
    var value: String
    var raw: Raw
    var writable: Bool
    var allowed: [String]?
    var range: [String: String]?

    /// The value as the camera sent it: a number or a string.
    enum Raw: Encodable {
        case number(Int64), text(String)
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .number(let n): try c.encode(n)
            case .text(let t): try c.encode(t)
            }
        }
    }

    init(meaning: PropertyMeaning, description: DevicePropertyDescription) {
        name = meaning.name
        let hex = String(description.code.rawValue, radix: 16)
        code = "0x" + String(repeating: "0", count: 4 - hex.count) + hex
        value = SafeText.display(meaning.display(description.current))
        raw = description.current.signedValue.map(Raw.number) ?? .text(description.current.stringValue ?? value)
        writable = description.writable
        switch description.form {
        case .none: break
        case .enumeration: allowed = meaning.choices(description).map(SafeText.display)
        case .range(let minimum, let maximum, let step):
            let shown = { SafeText.display(meaning.display($0)) }
            range = ["min": shown(minimum), "max": shown(maximum), "step": shown(step)]
        }
    }

    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? "null"
    }
}
