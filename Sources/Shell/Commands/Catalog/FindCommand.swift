import CommandKit
import MediaManager
import TerminalKit
import Words

/// find: every file below the folders given (the current folder by default), kept by date, kind, size or
/// newness, one path per line (or the long listing with -l): what `import` would consider, without fetching.
struct FindCommand: ShellCommand {
    let spec = CommandSpec(
        "find", area: .catalog,
        options: [OptionSpec(.long, short: "l", "long listing: date, size and type")] + FileFilter.options,
        arguments: [ArgumentSpec("FOLDER", .remoteFolder, .zeroOrMore)],
        summary: "find files below folders, by date, kind, size or newness",
        details: """
            Lists every file below each FOLDER (the current folder when none is given), with its path from the \
            top of the card. --since and --until keep files taken within those days (2024-05-01, or \
            2024-05-01T10:15), --kind photos, videos or raw files, --larger files over a size, --new files not \
            imported from this camera yet. Only the cached file list is read.
            """,
        examples: ["find --kind video --larger 100M", "find --since 2024-05-01 DCIM", "find --new"])

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        let catalog = try shell.loadedCatalog()
        let filter = try FileFilter(invocation, session: session, environment: shell.environment)
        let all = try Self.folders(invocation.arguments, catalog: catalog, shell).flatMap { folder in
            FileTree.files(under: folder, shownUnder: RemotePath.display(folder) == "/" ? "/" : RemotePath.display(folder) + "/", in: catalog)
        }
        let entries = filter.apply(all, shell: shell)
        if invocation.has(.long) {
            var listing = FileListing(dates: shell.dates)
            listing.times = CaptureTimeTable(entries.compactMap(\.file), session: session)
            for line in listing.long(entries, width: shell.output.terminalColumns) { shell.output.line(line) }
            shell.explainPendingDates(listing, entries)
        } else {
            for entry in entries { shell.output.line(SafeText.display(entry.shown)) }
        }
        return .success
    }

    /// The catalog paths of the folders the words name (the current folder when there are none).
    static func folders(_ words: [Word], catalog: MediaCatalog, _ shell: any CommandContext) throws -> [String] {
        guard !words.isEmpty else { return [shell.state.folder] }
        var folders: [String] = []
        for entry in try shell.names(catalog).entries(for: words) {
            guard entry.isFolder else {
                throw CommandError("\(SafeText.display(entry.shown)) is a file, not a folder")
            }
            folders.append(entry.path)
        }
        return folders
    }
}
