import CommandKit
import MediaManager
import TerminalKit

/// storages: each card or internal memory with its capacity and free space.
struct StoragesCommand: ShellCommand {
    let spec = CommandSpec(
        "storages", area: .catalog, summary: "list the camera's storages",
        details: "Lists each card or internal memory with its capacity and free space, its volume label and its description; NAME is the label, or the description when the label is a placeholder such as NO NAME.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        let storages = try session.camera.storages()
        guard !storages.isEmpty else {
            shell.output.line("no storage (is a card in the camera?)")
            return .success
        }
        // NAME is what the shell calls it (the description when the label is a placeholder); both follow.
        var rows = [["ID", "NAME", "SIZE", "FREE", "ACCESS", "LABEL", "DESCRIPTION"]]
        func shown(_ text: String) -> String { text.isEmpty ? "-" : SafeText.display(text) }
        for storage in storages {
            rows.append([
                Self.hex(storage.id), shown(storage.name),
                HumanReadable.size(storage.capacity), HumanReadable.size(storage.free),
                storage.readOnly ? "read-only" : "read-write", shown(storage.label), shown(storage.description),
            ])
        }
        for line in ColumnTable(rows: rows, alignments: [.left, .left, .right, .right]).lines() {
            shell.output.line(line)
        }
        return .success
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
