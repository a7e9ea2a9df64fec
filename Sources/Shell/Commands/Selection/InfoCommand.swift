import CommandKit
import MediaFormats
import MediaManager
import POSIX
import TerminalKit
import Words

/// info [NAME]: a file's size, date, kind, dimensions, sidecars and download state, as rows (with its
/// thumbnail beside them when pictures are on) or as JSON.
struct InfoCommand: ShellCommand {
    let spec = CommandSpec(
        "info", area: .selection, options: [.json], arguments: [ArgumentSpec("NAME", .remoteName, .optional)],
        summary: "show a file's details",
        details: "Shows the size, date, type and dimensions of NAME, or of the selected file.",
        examples: ["info DJI_0001.JPG", "info --json 'My Clip.MP4'"])

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        let catalog = try shell.loadedCatalog()
        let file: MediaFile
        if let word = invocation.arguments.first {
            file = try shell.oneFile(for: word, in: catalog, command: "info")
        } else {
            file = try shell.selectedFile(in: catalog)
        }
        let details = FileDetails(file: file, session: session, catalog: catalog)
        let downloadFolder = shell.downloadFolder(nil)
        let downloaded = LocalDisk.regularFileSize(LocalDisk.join(downloadFolder, LocalFileName.sanitize(file.name)))
        let partial = shell.partialSize(of: file)
        let selectedOffset = shell.state.selection?.file.path == file.path ? shell.state.selection?.offset : nil

        if invocation.has(.json) {
            let have = downloaded != nil ? file.size : partial
            shell.output.line(details.json(dates: shell.dates, selectedOffset: selectedOffset, downloaded: have))
            return .success
        }

        var rows = details.rows(dates: shell.dates)
        if downloaded != nil {
            rows.append(["downloaded:", "yes, in \(SafeText.display(downloadFolder))"])
        } else if let partial {
            rows.append(["downloaded:", "\(HumanReadable.size(partial)) of \(HumanReadable.size(file.size)) (.part)"])
        }
        if let selectedOffset { rows.append(["selected:", "yes, offset \(selectedOffset)"]) }
        return shell.pictures.printDetails(ColumnTable(rows: rows).lines(), of: file, session: session)
    }
}
