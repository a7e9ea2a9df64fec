import CommandKit
import MediaManager
import TerminalKit
import Words

/// refresh: reads the file list from the camera again; the selection and folder follow what remains.
struct RefreshCommand: ShellCommand {
    let spec = CommandSpec(
        "refresh", area: .catalog, summary: "read the file list again",
        details: "Discards the cached file list and reads it from the camera again.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        try shell.interruptibly(session) { try session.catalog.reload() }
        let catalog = session.catalog
        if let unreadable = catalog.unreadable { throw unreadable }
        shell.state.catalogReloaded(lookup: { catalog.file(atPath: $0) }, folderExists: { catalog.isFolder($0) })
        shell.output.note(CatalogDescription.line(for: catalog.status))
        return .success
    }
}
