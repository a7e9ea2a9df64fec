import CommandKit

/// mirror [FOLDER...]: lftp's name for `fetch -r`: each folder with everything below it, the tree kept under
/// the download folder.
struct MirrorCommand: ShellCommand {
    static let id: CommandID = "mirror"

    let spec = CommandSpec(
        id, area: .transfer,
        options: [
            OptionSpec(.output, short: "o", long: "output", value: ArgumentSpec("DIR", .localFolder), "download into DIR"),
            OptionSpec(.force, long: "force", "replace a different file at a name"),
        ],
        arguments: [ArgumentSpec("FOLDER", .remoteName, .zeroOrMore)],
        summary: "download folders with their tree (fetch -r)",
        details: """
            Fetches each FOLDER (the current folder when none is given) with everything below it, keeping the \
            tree under the download folder (or DIR): 'mirror DCIM' writes DCIM/100MEDIA/... there. The same as \
            'fetch -r', as lftp's mirror: .part files, resume, files already there skipped; 'mirror DCIM &' runs \
            it as a job.
            """,
        examples: ["mirror DCIM", "mirror -o ~/card-copy /"], runsInBackground: true)

    func run(_ invocation: Invocation, in shell: any JobContext) throws -> CommandOutcome {
        try FetchCommand().run(invocation, in: shell)
    }
}
