import CommandKit
import Foundation
import Import
import MediaManager
import TerminalKit
import Words

/// `import --list` (what is new, nothing fetched) and `import --dry-run` (where each new file would go and
/// the totals, nothing fetched).
enum ImportListing {
    static func list(_ plan: ImportPlan, _ shell: any CommandContext) -> CommandOutcome {
        let new = plan.items.filter { if case .imported = $0.action { false } else { true } }
        let rows = new.map { item in
            [
                RemotePath.display(item.file.path), HumanReadable.size(item.file.size),
                shell.dates.listing(ShownCaptureTime(time: item.captureTime, pending: false)),
            ]
        }
        for line in ColumnTable(rows: rows).lines() { shell.output.line(line) }
        let bytes = new.reduce(UInt64(0)) { $0 + $1.file.size }
        shell.output.line(
            "\(count(new.count, "new file")) (\(HumanReadable.size(bytes))); \(plan.alreadyImported.count) imported before")
        return .success
    }

    static func dryRun(_ plan: ImportPlan, verbose: Bool, _ shell: any CommandContext) -> CommandOutcome {
        for item in plan.items {
            let from = RemotePath.display(item.file.path)
            let to = SafeText.display(item.destination)
            switch item.action {
            case .fetch(let part, let overwrite):
                var note = ""
                if overwrite { note = " (replacing a different file, --force)" } else if item.renamed { note = " (a different file has the name)" }
                if part > 0 { note += " (continuing \(HumanReadable.size(part)) kept in .part)" }
                shell.output.line("\(from) -> \(to)\(note)")
            case .alreadyThere:
                if verbose { shell.output.line("\(from): already at \(to)") }
            case .imported:
                if verbose { shell.output.line("\(from): imported before, to \(to)") }
            }
        }
        let fetch = plan.toFetch
        var line = "would fetch \(count(fetch.count, "file")) (\(HumanReadable.size(plan.bytesToFetch)))"
        line += "; \(plan.alreadyImported.count + plan.alreadyThere.count) skipped as already imported"
        if plan.placer.shift != 0 { line += "; capture times shifted by \(ShiftText.format(plan.placer.shift))" }
        let nonsense = plan.items.filter { !$0.datesSetAside.isEmpty }.count
        if nonsense > 0 { line += "; \(nonsense) with a nonsense date (1970, 1980-01-01, …) placed by the next source" }
        do {
            try ImportRun.checkFreeSpace(plan)
        } catch {
            line += "; " + Interpreter.message(for: error)
        }
        shell.output.line(line)
        return .success
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
