import CommandKit
import MediaManager
import TerminalKit
import Words

/// storages: each card or internal memory with its capacity and free space.
struct StoragesCommand: ShellCommand {
    let spec = CommandSpec(
        "storages", area: .catalog, summary: "list the camera's storages",
        details: "Lists each card or internal memory with its capacity and free space, its volume label and its description; NAME is the label, or the description when the label is a placeholder such as NO NAME.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        let storages = try session.camera.storages()
        guard !storages.isEmpty else {
            shell.output.note("no storage (is a card in the camera?)")
            return .success
        }
        for line in StorageWords.table(storages) { shell.output.line(line) }
        return .success
    }
}
