import CommandKit
import Import
import MediaManager
import TerminalKit

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
        var totals: [String: (bytes: UInt64, files: Int, newBytes: UInt64, newFiles: Int)] = [:]
        var order: [String] = []
        var all = (bytes: UInt64(0), files: 0, newBytes: UInt64(0), newFiles: 0)
        for root in try FindCommand.folders(invocation.arguments, catalog: catalog, shell) {
            for entry in FileTree.files(under: root, shownUnder: "", in: catalog) {
                guard let file = entry.file else { continue }
                let isNew = ledgers.entry(for: file) == nil
                all.bytes += file.size
                all.files += 1
                if isNew {
                    all.newBytes += file.size
                    all.newFiles += 1
                }
                // The file counts in its folder and every folder above it, up to the root asked for.
                var folder = file.folder
                while true {
                    if totals[folder] == nil { order.append(folder) }
                    var t = totals[folder] ?? (0, 0, 0, 0)
                    t.bytes += file.size
                    t.files += 1
                    if isNew {
                        t.newBytes += file.size
                        t.newFiles += 1
                    }
                    totals[folder] = t
                    if folder == root || folder.isEmpty { break }
                    folder = folder.contains("/") ? String(folder[..<folder.lastIndex(of: "/")!]) : ""
                }
            }
        }
        var rows = order.sorted().map { folder -> [String] in
            let t = totals[folder]!
            return Self.row(t.bytes, t.files, t.newBytes, t.newFiles, RemotePath.display(folder))
        }
        rows.append(Self.row(all.bytes, all.files, all.newBytes, all.newFiles, "total"))
        for line in ColumnTable(rows: rows, alignments: [.right, .right, .right, .left]).lines() { shell.output.line(line) }
        return .success
    }

    static func row(_ bytes: UInt64, _ files: Int, _ newBytes: UInt64, _ newFiles: Int, _ name: String) -> [String] {
        [
            HumanReadable.size(bytes), "\(files) file\(files == 1 ? "" : "s")",
            newFiles == 0 ? "nothing new" : "\(HumanReadable.size(newBytes)) new (\(newFiles))", SafeText.display(name),
        ]
    }
}
