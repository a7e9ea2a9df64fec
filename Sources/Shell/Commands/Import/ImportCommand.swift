import CommandKit
import Foundation
import Import
import MediaFormats
import MediaManager
import POSIX
import TerminalKit
import Transfers
import Words

extension OptionName {
    static let to: OptionName = "to"
    static let dryRun: OptionName = "dry-run"
    static let again: OptionName = "again"
    static let list: OptionName = "list"
    static let verbose: OptionName = "verbose"
    static let noSidecars: OptionName = "no-sidecars"
    static let noProxies: OptionName = "no-proxies"
    static let shift: OptionName = "shift"
    static let timeZone: OptionName = "tz"
    static let verify: OptionName = "verify"
    static let backup: OptionName = "backup"
    static let meta: OptionName = "meta"
    static let mhl: OptionName = "mhl"
}

/// import: brings the card's new photos and videos home, sorted into folders by capture date, each once.
/// The steps: which files (every DCIM folder of every store, or the folders and globs given, each with its
/// sidecars), the ledger of what this camera already gave (`Import`), the plan (where each file goes, what
/// is new), then a listing, a dry run, or the run itself with its one progress line and summary.
struct ImportCommand: ShellCommand {
    let spec = CommandSpec(
        "import", area: .transfer,
        options: [
            OptionSpec(.to, long: "to", value: ArgumentSpec("PATTERN", .localPath), "where files go: a pattern of the tokens below"),
            OptionSpec(.dryRun, short: "n", long: "dry-run", "say where each new file would go, fetch nothing"),
            OptionSpec(.again, long: "again", "bring files imported before too"),
            OptionSpec(.list, long: "list", "list the new files, fetch nothing"),
            OptionSpec(.verbose, short: "v", long: "verbose", "name every file, skipped ones too"),
            OptionSpec(.noSidecars, long: "no-sidecars", "leave .SRT, .THM and other sidecars on the card"),
            OptionSpec(.noProxies, long: "no-proxies", "leave .LRF proxy videos on the card"),
            OptionSpec(.deleteAfter, long: "delete-after", "delete each file from the camera once it is safely home"),
            OptionSpec(.force, long: "force", "replace different files; skip the free-space check"),
            OptionSpec(.backup, long: "backup", value: ArgumentSpec("DIR|PATTERN", .localPath),
                "also write every file under DIR in the same layout, or where PATTERN says, in the same pass (repeatable; default: the import-backup setting)"),
            OptionSpec(.verify, long: "verify", value: ArgumentSpec("HOW", .choice(CopyVerification.allCases.map(\.rawValue))),
                "none, written (the default) or read-back (the default with --delete-after): how each copy is proven"),
            OptionSpec(.shift, long: "shift", value: ArgumentSpec("DURATION", .text),
                "add DURATION (+3h02m, -1h, +1d) to every capture time: a camera whose clock was wrong"),
            OptionSpec(.timeZone, long: "tz", value: ArgumentSpec("ZONE", .text),
                "where times without a zone were shot (Europe/Paris, UTC, +02:00): their files' times"),
            OptionSpec(.meta, long: "meta", value: ArgumentSpec("FILE", .localPath),
                "write an XMP sidecar beside each photo and video, with the fields FILE gives ('creator: Ann Lee', "
                    + "copyright, keywords, rating, title, description) over the settings of those names"),
            OptionSpec(.mhl, long: "mhl",
                "record every copy in an ASC MHL history (ascmhl/) at each destination's root, as film and TV "
                    + "offloads are (default: the mhl setting)"),
        ] + Self.filters,
        arguments: [ArgumentSpec("FOLDER|GLOB", .remoteName, .zeroOrMore)],
        summary: "bring the card's new files home, sorted by date",
        details: """
            Fetches every file of every DCIM folder on every card of the camera (or of the folders and globs \
            given) that was not imported from this camera before, with its sidecars (.SRT telemetry, .LRF \
            proxies, .THM thumbnails, the JPEG of a RAW+JPEG pair), into folders named by when it was taken. \
            A ledger per camera in $XDG_DATA_HOME/mediashell/imports remembers what came home, so moving or \
            renaming your files never makes them new; --again ignores it. PATTERN (default: the import-to \
            setting, ~/Pictures/%Y/%Y-%m-%d/%f) names where each file goes with the tokens listed below; a \
            pattern without %f names a folder. A different file at a name gives the new one a unique \
            name (NAME (2).JPG); the same file already there is skipped. Files get their capture time as their \
            modification time. Ctrl-C keeps the file in progress as NAME.part: 'import' again finishes what is \
            left, nothing twice. Refused when the destination has too little room, unless --force. The card's file list is read \
            afresh first, so files added since (a card reader, a camera that reports nothing) are seen. \
            'import &' runs it as a job ('jobs', 'wait', 'kill %N', 'fg') while other commands go on. \
            Each file's XXH3-128 checksum is computed as its bytes arrive, recorded in the ledger and in a \
            manifest at the destination's root (mediashell-import-DATE_TIME.xxh128: 'cd' there and \
            'xxhsum -c' it). --verify read-back reads each copy back from the disk, not the memory's cache, \
            and compares: a copy that differs is kept as NAME.verify-failed, is not recorded and is never \
            deleted from the camera; --verify none computes no checksum. --backup DIR writes a second copy \
            of every file under DIR, in the layout it has under PATTERN's folder, from the same read of the \
            camera; --backup with tokens ('/mnt/backup/%c/%Y/%f') names each copy by a pattern of its own. \
            --delete-after deletes only what every destination holds verified. --mhl (or 'set mhl on') also \
            adds an ASC MHL generation (ascmhl/NNNN_ROOT_DATE.mhl, chained in ascmhl/ascmhl_chain.xml) at \
            each destination's root, recording each proven copy with its size, time and XXH3-128 checksum, \
            and the folders' hashes: 'ascmhl verify ROOT' checks it, and so does 'verify ROOT'.
            """,
        sections: [
            HelpSection("PATTERN tokens", [
                HelpEntry("%Y %m %d", "the capture date's year, month and day (EXIF where the photo has it, else the camera's)"),
                HelpEntry("%H %M %S", "its hour, minute and second"),
                HelpEntry("%f", "the file's name on the card"),
                HelpEntry("%b %e", "its name without the extension, and the extension"),
                HelpEntry("%F", "its folder on the card (100MEDIA)"),
                HelpEntry("%c", "the camera model"),
                HelpEntry("%n", "a number that counts on across imports"),
                HelpEntry("%%", "a %"),
            ])
        ],
        runsInBackground: true)

    /// `find`'s filters, which choose the files an import brings (with their groups: a clip's `.SRT` comes
    /// with the clip); `--new` is what an import always is.
    static let filters = FileFilter.options.filter { $0.name != .new }

    /// The XMP sidecars to write: the sidecar settings, with what `--meta FILE` gives over them; nil when
    /// neither says anything. A file that cannot be read, or a line of it that is not a field, stops the
    /// import before it begins.
    static func sidecar(_ invocation: Invocation, settings: Settings) throws -> SidecarWriting? {
        var metadata = settings.sidecar
        if let word = invocation.value(of: .meta) {
            let path = LocalDisk.expandingTilde(word.text)
            let bytes: [UInt8]?
            do { bytes = try LocalDisk.readWhole(path, limit: 1 << 20) } catch {
                throw CommandError("--meta: \(LocalFailureWords.sentence(for: error))")
            }
            guard let bytes else { throw CommandError("--meta: \(SafeText.display(path)): no such file") }
            do {
                metadata = metadata.merging(try SidecarMetadata(parsing: String(decoding: bytes, as: UTF8.self)))
            } catch {
                throw CommandError("--meta \(SafeText.display(path)): \(error.description)")
            }
        }
        guard !metadata.isEmpty else { return nil }
        return SidecarWriting(metadata: metadata, naming: settings.sidecarNaming, tool: "mediashell \(Shell.version)")
    }

    /// `path` from the current folder, without a trailing slash.
    static func absolute(_ path: String) -> String {
        var full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        while full.count > 1 && full.hasSuffix("/") { full.removeLast() }
        return full
    }

    func run(_ invocation: Invocation, in shell: any JobContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        if invocation.has(.deleteAfter) { try shell.refuseChangesToReadOnlyFolder(session, FolderAccessWords.deleting) }
        // The card as it is now, read afresh: files added since the last listing come too, on a card folder
        // or a camera that sends no events (one listing: what a no-op import costs). A script's first
        // command after the open has that listing already.
        if !shell.cardListedJustNow { try session.catalog.reload() }
        let catalog = try shell.loadedCatalog()
        shell.state.catalogReloaded(lookup: { catalog.file(atPath: $0) }, folderExists: { catalog.isFolder($0) })
        let files = try Self.filtered(
            try Self.chosenFiles(invocation.arguments, catalog: catalog, shell),
            by: try FileFilter(invocation, session: session, environment: shell.environment), shell)
        let patternText = invocation.value(of: .to)?.text ?? shell.state.settings.importPattern
        var options = ImportOptions(pattern: try DestinationPattern(LocalDisk.expandingTilde(patternText)))
        options.again = invocation.has(.again)
        options.sidecars = !invocation.has(.noSidecars)
        options.proxies = !invocation.has(.noProxies)
        options.force = invocation.has(.force)
        if let word = invocation.value(of: .shift) {
            guard let seconds = ShiftText.parse(word.text) else {
                throw CommandError("--shift takes a duration such as +3h02m, -1h or +1d, not '\(SafeText.display(word.text))'")
            }
            options.shift = seconds
        }
        if let word = invocation.value(of: .timeZone) {
            guard let zone = TimeZoneText.parse(word.text) else {
                throw CommandError("--tz takes a zone such as Europe/Paris, UTC or +02:00, not '\(SafeText.display(word.text))'")
            }
            options.timeZone = zone
        }
        let ledgerFolder = LedgerLocation.folder(environment: shell.environment)
        let ledgers = try Importer.ledgers(for: session, folder: ledgerFolder)
        // This camera's own shift (`set time-shift`), unless --shift says otherwise.
        if invocation.value(of: .shift) == nil, let saved = ledgers.shift { options.shift = saved }
        let looking = invocation.has(.list) || invocation.has(.dryRun)
        // A listing reads the ledger; a run holds it, so two imports from one camera never overlap.
        let runs = looking ? [] : try ledgers.beginRun()
        var handedToJob = false
        defer { if !handedToJob { for run in runs { run.end() } } }
        // A run reads each photo's date from the first bytes of its download; a listing or a dry run,
        // which fetch nothing, from its header. The headers are read here, with a progress line, for the
        // new groups' main files (a run leaves its JPEGs to their downloads).
        let groups = CardSelection.groups(for: files, in: catalog)
        var runOptions = ImportRun.Options()
        runOptions.deleteAfter = invocation.has(.deleteAfter)
        runOptions.writesManifest = true
        // A file is deleted from the camera only once its copy is proven: read back, unless asked otherwise.
        runOptions.verification = invocation.value(of: .verify).flatMap { CopyVerification(rawValue: $0.text) }
            ?? (runOptions.deleteAfter ? .readBack : .written)
        runOptions.sidecar = try Self.sidecar(invocation, settings: shell.state.settings)
        if invocation.has(.mhl) || shell.state.settings.mhl {
            guard runOptions.verification != .none else {
                throw CommandError("--mhl records each copy's checksum: it cannot go with --verify none")
            }
            runOptions.mhl = MHLCreator(tool: "mediashell", version: Shell.version)
        }
        if let limit = shell.state.settings.rateLimit { runOptions.chunkSize = TransferPacer.chunkSize(forLimit: limit) }
        let firstRequest = runOptions.chunkSize
        // What other cards' imports brought home is skipped, each proven by one small read (not with --again).
        let elsewhere =
            options.again
            ? [:] : Importer.importedElsewhere(
                groups, session: session, ledgers: ledgers, folder: ledgerFolder, root: options.pattern.fixedRoot,
                cancellation: shell.interrupt.cancellation)
        let mains = groups.map(\.main).filter { (ledgers.entry(for: $0) == nil && elsewhere[$0.path] == nil) || options.again }
        shell.readCaptureTimes(
            looking ? mains : mains.filter { !ImportRun.datedByFirstBytes($0, firstRequest: firstRequest) }, session: session)
        let plan = Importer.plan(
            groups, session: session, options: options, ledgers: ledgers, elsewhere: elsewhere, datesFromDownload: !looking,
            firstRequest: firstRequest)
        let verbose = invocation.has(.verbose)
        if invocation.has(.list) || invocation.has(.dryRun) {
            let lines =
                invocation.has(.list)
                ? ImportWords.list(plan.preview, dates: shell.dates)
                : ImportWords.dryRun(plan.preview, verbose: verbose, roomProblem: Self.roomProblem(plan))
            for line in lines { shell.output.note(line) }
            return .success
        }
        for line in ImportWords.importedElsewhere(plan.importedFromOtherCards) { shell.output.note("import: " + line) }
        let needed = options.force ? nil : try ImportRun.checkFreeSpace(plan) { session.resolveCaptureTime($0.main) }
        // Every --backup given, else the import-backup setting's; each once, never the pattern's own root.
        let backupWords = invocation.values(of: .backup).map(\.text)
        var backups: [BackupTarget] = []
        for text in backupWords.isEmpty ? shell.state.settings.importBackups : backupWords {
            let target = try BackupTarget(Self.absolute(LocalDisk.expandingTilde(text)))
            guard target.root != Self.absolute(plan.root) else {
                throw CommandError("--backup \(SafeText.display(text)) is where the import writes its first copy: name another folder")
            }
            guard !backups.contains(where: { $0.root == target.root && $0 != target }) else {
                throw CommandError("two --backup destinations under \(SafeText.display(target.root)): give each a folder of its own")
            }
            if !backups.contains(target) { backups.append(target) }
        }
        if !backups.isEmpty {
            if !options.force { try ImportRun.checkBackups(plan, roots: backups.map(\.root), needed: needed) }
            runOptions.backups = backups
        }
        try shell.refuseFilesOfRunningJobs(files, "import")

        let batch = ImportBatch(host: shell.batchHost, session: session, verbose: verbose, deleteAfter: invocation.has(.deleteAfter))
        if invocation.runsInBackground {
            // The job holds the ledger's runs until it ends.
            let work = ImportJob(
                session: session, plan: plan, ledgers: ledgers, runs: runs, options: runOptions,
                rateLimit: shell.state.settings.rateLimit, clock: shell.transferClock)
            let outcome = try shell.startJob(invocation, files: files) { work.run($0) }
            handedToJob = true
            return outcome
        }
        let summary = try ImportRun(session: session, plan: plan, ledgers: ledgers, options: runOptions).run(
            cancellation: batch.cancellation, progress: { batch.progress($0) }, event: { batch.event($0) },
            stopAfter: { batch.shouldStop(after: $0) })
        return batch.finish(summary)
    }

    /// Why the plan's files would not fit where they go (the free-space check's refusal), nil when they fit.
    static func roomProblem(_ plan: ImportPlan) -> (any Error)? {
        do {
            _ = try ImportRun.checkFreeSpace(plan)
            return nil
        } catch {
            return error
        }
    }

    /// The files the words name: folders with everything below them, files and globs as they match; with no
    /// words, every DCIM folder of every store.
    /// The files `filter` keeps (reading the capture times its dates need, with a progress line); none kept
    /// is an error that says the filter chose nothing.
    static func filtered(_ files: [MediaFile], by filter: FileFilter, _ shell: any JobContext) throws -> [MediaFile] {
        guard !filter.criteria.isEmpty else { return files }
        var kept = files.filter { filter.criteria.keeps($0, in: filter.session, timeToo: false) }
        if filter.criteria.needsTimes {
            shell.readCaptureTimes(kept, session: filter.session)
            kept = kept.filter { filter.criteria.keeps($0, in: filter.session) }
        }
        guard !kept.isEmpty else { throw CommandError("no file on the card is kept by --since, --until, --kind or --larger") }
        return kept
    }

    static func chosenFiles(_ words: [Word], catalog: MediaCatalog, _ shell: any JobContext) throws -> [MediaFile] {
        guard !words.isEmpty else {
            let files = CardSelection.dcimFiles(in: catalog)
            guard !files.isEmpty else {
                throw CommandError("no files in a DCIM folder on this camera (name the folders to import, e.g. 'import /')")
            }
            return files
        }
        var files: [MediaFile] = []
        for entry in try shell.names(catalog).entries(for: words) {
            if entry.isFolder {
                files += CardSelection.files(under: [entry.path], in: catalog)
            } else if let file = entry.file {
                files.append(file)
            }
        }
        guard !files.isEmpty else { throw CommandError("no files in the folders given") }
        return files
    }
}
