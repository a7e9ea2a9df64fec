import CommandKit
import Import
import MediaManager
import TerminalKit
import Words

/// du: how much each folder holds (with everything below it), and how much of it is new (not imported from
/// this camera yet), from the cached file list.
struct DiskUsageCommand: ShellCommand {
    let spec = CommandSpec(
        "du", area: .catalog,
        arguments: [ArgumentSpec("FOLDER", .remoteFolder, .zeroOrMore)],
        summary: "sizes per folder, and how much is new",
        details: """
            For each folder below each FOLDER (the current folder when none is given) that holds files: their \
            total size and count, with everything below it, and how much of that was not imported from this \
            camera yet (see 'import'); then the total.
            """,
        examples: ["du", "du DCIM/100MEDIA"])

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        let catalog = try shell.loadedCatalog()
        let ledgers = try Importer.ledgers(for: session, folder: LedgerLocation.folder(environment: shell.environment))
        let usage = CardUsage(
            roots: try FindCommand.folders(invocation.arguments, catalog: catalog, shell), catalog: catalog, ledgers: ledgers)
        var rows = usage.folders.sorted { $0.key < $1.key }.map { Self.row($0.value, RemotePath.display($0.key)) }
        rows.append(Self.row(usage.all, "total"))
        for line in ColumnTable(rows: rows, alignments: [.right, .right, .right, .left]).lines() { shell.output.line(line) }
        return .success
    }

    static func row(_ t: CardUsage.Totals, _ name: String) -> [String] {
        [
            HumanReadable.size(t.bytes), "\(t.files) file\(t.files == 1 ? "" : "s")",
            t.newFiles == 0 ? "nothing new" : "\(HumanReadable.size(t.newBytes)) new (\(t.newFiles))", SafeText.display(name),
        ]
    }
}
