import CommandKit
import MediaManager
import TerminalKit
import Words

/// ls (dir): the current folder or the names matching each GLOB, short, long (-l), as JSON, or as a contact
/// sheet of thumbnails (--thumbs). Folders a glob matches are listed in blocks under their names (`ls DCIM/*`).
struct ListCommand: ShellCommand {
    let spec = CommandSpec(
        "ls", aliases: ["dir"], area: .catalog,
        options: [
            OptionSpec(.long, short: "l", "long listing: size, date and type"),
            OptionSpec(.onePerLine, short: "1", "one name per line, even on a terminal"),
            OptionSpec(.humanSizes, short: "h", "sizes in kB, MB, GB (always so; taken for the habit)"),
            OptionSpec(.all, short: "a", "also names that begin with '.'"),
            OptionSpec(.byTime, short: "t", "sort by date, newest first"),
            OptionSpec(.bySize, short: "S", "sort by size, largest first"),
            OptionSpec(.reverse, short: "r", "reverse the order"),
            OptionSpec(.thumbs, long: "thumbs", "a contact sheet of the photos' and videos' thumbnails"),
            .json,
            OptionSpec(.recursive, short: "R", "every file below the folders, with its path"),
            OptionSpec(.directory, short: "d", "folders a glob matches as names, not their contents"),
            OptionSpec(.numbered, short: "n", "number the rows, for file arguments such as #3 or #1-5 later"),
        ] + FileFilter.options,
        arguments: [ArgumentSpec("GLOB", .remoteName, .zeroOrMore)],
        summary: "list files on the camera",
        details: """
            Lists the current folder, or the files and folders matching each GLOB. With --thumbs, draws the \
            thumbnails of the photos and videos among them, as many to a row as fit, each row as soon as its \
            thumbnails arrived (Ctrl-C stops it); a line per file when output is not a terminal or with \
            `set images off`. A glob that matches folders lists each one's contents under a `NAME:` heading, after \
            the files it matched, as a POSIX shell's ls does; -d lists the folders themselves. -R lists every file below the folders; --since, --until, --kind, --larger and \
            --new keep only some files (see 'find'). Names that begin with '.' are listed with -a or when named.             On a terminal, names a shell would split are quoted as GNU ls quotes them ('My Clip.MP4'). -n (or \
            `set numbers on`) numbers the rows: until the next numbered listing, file arguments of any command \
            take #3, #1-5 or #1,3,5-7 for them.
            """,
        examples: [
            "ls -lh", "ls -1 *.MP4", "ls -lt DCIM/100MEDIA", "ls --thumbs *.JPG", "ls -R --kind video", "ls -n; fetch #1-3",
        ])

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        if invocation.has(.thumbs) && invocation.has(.json) {
            throw CommandError("--thumbs draws pictures and --json writes data: use one of them")
        }
        let catalog = try shell.loadedCatalog()
        var order = FileListing.Order()
        order.byTime = invocation.has(.byTime)
        order.bySize = invocation.has(.bySize)
        order.reversed = invocation.has(.reverse)
        let session = try shell.requireCamera()
        let filter = try FileFilter(invocation, session: session, environment: shell.environment)
        var blocks: [ListingBlock]
        if invocation.has(.recursive) {
            let single = invocation.arguments.count <= 1
            blocks = [ListingBlock(heading: nil, entries: try FindCommand.folders(invocation.arguments, catalog: catalog, shell).flatMap { folder in
                FileTree.files(under: folder, shownUnder: single ? "" : RemotePath.display(folder).dropFirst() + "/", in: catalog)
            })]
        } else {
            blocks = try ListingBlock.blocks(
                invocation.arguments, contentsOf: { catalog.contents(of: $0) },
                named: shell.names(catalog).entries(for:), folder: shell.state.folder,
                expandingGlobbedFolders: !invocation.has(.directory), showingAll: invocation.has(.all))
        }
        if invocation.has(.thumbs) || invocation.has(.json) { blocks = [ListingBlock.flattened(blocks)] }
        let named = Set(invocation.arguments.filter { !$0.isGlob }.map(\.text))
        let quoted = shell.output.terminalColumns != nil
        var printedBefore = false
        // The rows numbered so far (-n, or `set numbers on`), across the blocks; a contact sheet has none.
        var numbered: [String]? = (invocation.has(.numbered) || shell.state.settings.numbers) && !invocation.has(.thumbs) ? [] : nil
        let numberWidth = FileListing.numberWidth(blocks.reduce(0) { $0 + $1.entries.count })
        for block in blocks {
            var found = block.entries
            if !invocation.has(.all), found.contains(where: \.isHidden) {
                // Hidden names (phones keep `.thumbnails` and `.trashed-…` on their cards) unless named outright.
                found = found.filter { !$0.isHidden || named.contains($0.shown) }
            }
            found = filter.apply(found, shell: shell)
            // Capture times for what shows or orders by them: those known, and a budget of header reads.
            var listing = FileListing(dates: shell.dates)
            if invocation.has(.long) || invocation.has(.json) || order.byTime {
                listing.times = CaptureTimeTable(found.compactMap(\.file).filter { !$0.isFolder }, session: session)
            }
            var entries = FileListing.sorted(found, order, times: listing.times)
            if invocation.has(.long) || invocation.has(.json) { entries = ContentDescribed.entries(entries, shell: shell) }
            if let heading = block.heading {
                if printedBefore { shell.output.line("") }
                shell.output.line((quoted ? ShellEscapedName.quoted(heading) : SafeText.display(heading)) + ":")
            }
            let first = (numbered?.count ?? 0) + 1
            numbered? += entries.map(\.path)
            if invocation.has(.thumbs) {
                return try shell.contactSheet(of: entries)
            } else if invocation.has(.json) {
                shell.output.line(numbered == nil ? listing.json(entries) : listing.numberedJSON(entries, from: first))
            } else if invocation.has(.long) {
                let columns = shell.output.terminalColumns
                let lines =
                    numbered == nil
                    ? listing.long(entries, quoted: quoted, width: columns)
                    : listing.numberedLong(entries, from: first, width: numberWidth, quoted: quoted, columns: columns)
                for line in lines { shell.output.line(line) }
                shell.explainPendingDates(listing, entries)
            } else {
                let (columns, onePerLine) = (shell.output.terminalColumns, invocation.has(.onePerLine))
                let lines =
                    numbered == nil
                    ? listing.short(entries, columns: columns, onePerLine: onePerLine)
                    : listing.numberedShort(entries, from: first, width: numberWidth, columns: columns, onePerLine: onePerLine)
                for line in lines { shell.output.line(line) }
            }
            printedBefore = printedBefore || block.heading != nil || !entries.isEmpty
        }
        if let numbered { shell.state.numberedRows(numbered) }
        return .success
    }
}

extension OptionName {
    /// `ls -d`: folders a glob matches are listed as names, not opened.
    static let directory: OptionName = "directory"
    /// `ls -n`: the rows are numbered, for file arguments such as `#3`.
    static let numbered: OptionName = "numbered"
}
