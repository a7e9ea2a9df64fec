import CommandKit
import MediaManager
import POSIX
import TerminalKit
import Transfers
import Words

/// fetch (get): downloads through `.part` files, with a progress line on a terminal, Ctrl-C keeping the
/// `.part` and leaving the selection's offset where it stopped, and an optional rate limit. The steps: the
/// files and the folder, the options, the download (each result said as it comes, see `FetchBatch`), and
/// how the batch ended.
struct FetchCommand: ShellCommand {
    let spec = CommandSpec(
        "fetch", aliases: ["get"], area: .transfer,
        options: [
            OptionSpec(.continue, short: "c", long: "continue", "resume a partial download"),
            OptionSpec(.recursive, short: "r", long: "recursive", "fetch folders with all below them, keeping the tree"),
            OptionSpec(
                .output, short: "o", long: "output", value: ArgumentSpec("DIR", .localFolder),
                "download into DIR"),
            OptionSpec(.new, long: "new", "skip files already here (what fetch always does)"),
            OptionSpec(.force, long: "force", "replace a different file at a name"),
            OptionSpec(.deleteAfter, long: "delete-after", "delete each file from the camera once it arrived"),
        ],
        arguments: [ArgumentSpec("NAME|GLOB", .remoteName, .zeroOrMore)],
        summary: "download files",
        details: """
            Downloads each named file, or the selected file, into the download folder (the local folder unless \
            `set download-dir` or -o says otherwise). A download writes NAME.part and renames it when complete; \
            an interrupted one (Ctrl-C, a dropped connection) continues from where it stopped. A file already \
            there (same size and capture time) is skipped; a different file at the name is kept and the new one \
            gets a unique name (NAME (2).JPG), unless --force replaces it. Files get the capture time as their \
            modification time. -c is accepted for habit: continuing is what fetch always does; so is --new. \
            'fetch ... &' runs it as a job ('jobs', 'wait', 'kill %N', 'fg'): other commands work meanwhile, and \
            its requests give way to theirs. -r (or 'mirror', as in lftp) fetches each FOLDER with everything \
            below it, keeping the tree under the download folder: 'fetch -r DCIM' writes DCIM/100MEDIA/... there \
            (the current folder with no NAME).
            """,
        examples: ["fetch DJI_0003.MP4", "fetch *.MP4 &", "fetch -r DCIM", "mirror DCIM/100MEDIA", "fetch -c", "fetch -o ~/Videos *.MP4", "fetch --new --delete-after *", "get 'My Clip.MP4'"],
        runsInBackground: true)

    func run(_ invocation: Invocation, in shell: any JobContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        if invocation.has(.deleteAfter) { try shell.refuseChangesToReadOnlyFolder(session, FolderAccessWords.deleting) }
        let catalog = try shell.loadedCatalog()
        let folder = try destination(invocation, shell)
        let groups: [FetchGroup]
        if invocation.has(.recursive) || invocation.id == MirrorCommand.id {
            groups = try FetchTree.groups(invocation.arguments, destination: folder, catalog: catalog, shell)
        } else {
            let files = try shell.files(for: invocation.arguments, catalog: catalog, recursive: "fetch -r")
            groups = [FetchGroup(folder: folder, files: files)]
        }
        let files = groups.flatMap(\.files)
        let options = Self.options(invocation, files: files, folder: folder, shell)
        try shell.refuseFilesOfRunningJobs(files, "fetch")
        if invocation.runsInBackground {
            let work = FetchJob(
                session: session, groups: groups, options: options, rateLimit: shell.state.settings.rateLimit,
                clock: shell.transferClock)
            return try shell.startJob(invocation, files: files) { work.run($0) }
        }
        // A destination that is not there is made, and said (a typo in -o makes a folder nobody meant).
        var made = !LocalDisk.exists(folder)
        func sayMade() {
            guard made, LocalDisk.isDirectory(folder) else { return }
            made = false
            shell.output.note(LocalFolderText.made(LocalDisk.absolute(folder)))
        }
        let batch = FetchBatch(host: shell.batchHost, session: session, folder: folder, options: options, verbose: false)
        batch.showBatch(files)
        var answered = 0
        for group in groups {
            if answered > 0 && batch.cancellation.isCancelled { break }
            batch.folder = group.folder
            answered += try session.fetch(
                group.files, to: group.folder, options: options, cancellation: batch.cancellation,
                progress: { batch.update($0) },
                each: { result in
                    sayMade()
                    batch.record(result)
                }
            ).count
        }
        sayMade()
        return batch.finish(asked: files.count, answered: answered)
    }

    /// `-o DIR`, else the `download-dir` setting; refused when it names something that is not a folder.
    private func destination(_ invocation: Invocation, _ shell: any JobContext) throws -> String {
        let folder = shell.downloadFolder(invocation.value(of: .output))
        if LocalDisk.exists(folder) && !LocalDisk.isDirectory(folder) {
            throw CommandError("\(SafeText.display(folder)) is not a folder")
        }
        return folder
    }

    /// The flags as fetch options; where the selected file starts when `offset N` moved it back over what its
    /// `.part` (in this destination) holds (any other offset only reports what a `.part` held, and the fetch
    /// continues the one it writes to); chunks small enough for the rate limit to be smooth.
    static func options(
        _ invocation: Invocation, files: [MediaFile], folder: String, _ shell: any JobContext
    ) -> MediaSession.FetchOptions {
        var options = MediaSession.FetchOptions()
        options.overwrite = invocation.has(.force)
        options.onlyNew = invocation.has(.new)
        options.deleteAfter = invocation.has(.deleteAfter)
        if files.count == 1, let only = files.first, let selected = shell.state.selection,
            selected.file.path == only.path, selected.isRewind, let onDisk = shell.partialSize(of: only, in: folder),
            selected.offset < onDisk
        {
            options.startOffset = selected.offset
        }
        if let limit = shell.state.settings.rateLimit {
            options.chunkSize = TransferPacer.chunkSize(forLimit: limit)
        }
        return options
    }
}
