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
            var object = InfoJSON(entry: FileListing.jsonEntry(
                RemoteEntry(path: file.path, file: file, isFolder: false, shown: file.name), dates: shell.dates,
                time: ShownCaptureTime(time: details.taken.time, pending: false)))
            object.entry.duration = details.video?.duration ?? object.entry.duration
            object.entry.width = details.video?.width ?? details.photo?.displayWidth ?? object.entry.width
            object.entry.height = details.video?.height ?? details.photo?.displayHeight ?? object.entry.height
            object.entry.fps = details.video?.framesPerSecond ?? object.entry.fps
            object.entry.codec = details.video?.codec ?? object.entry.codec
            object.fpsRange = details.video?.frameRateRange.map { [$0.lowerBound, $0.upperBound] }
            object.sidecars = details.sidecars.map(\.name)
            object.selected = selectedOffset != nil
            object.offset = selectedOffset
            object.downloaded = downloaded != nil ? file.size : partial
            shell.output.line(FileListing.encode(object))
            return .success
        }

        var rows = details.rows(dates: shell.dates)
        if downloaded != nil {
            rows.append(["downloaded:", "yes, in \(SafeText.display(downloadFolder))"])
        } else if let partial {
            rows.append(["downloaded:", "\(HumanReadable.size(partial)) of \(HumanReadable.size(file.size)) (.part)"])
        }
        if let selectedOffset { rows.append(["selected:", "yes, offset \(selectedOffset)"]) }
        return shell.printDetails(ColumnTable(rows: rows).lines(), of: file, session: session)
    }

    /// `info --json`: the listing's entry with what `FileDetails` found, the sidecars and the download state.
    private struct InfoJSON: Encodable {
        var entry: FileListing.JSONEntry
        var sidecars: [String] = []
        var selected = false
        var offset: UInt64?
        var downloaded: UInt64?
        /// A variable-rate video's lowest and highest rate, `[10, 30]` (`fps` is the average).
        var fpsRange: [Double]?

        enum Keys: String, CodingKey {
            case sidecars, selected, offset, downloaded, fpsRange
        }

        func encode(to encoder: Encoder) throws {
            try entry.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(sidecars, forKey: .sidecars)
            try container.encode(selected, forKey: .selected)
            try container.encodeIfPresent(offset, forKey: .offset)
            try container.encodeIfPresent(downloaded, forKey: .downloaded)
            try container.encodeIfPresent(fpsRange, forKey: .fpsRange)
        }
    }
}
