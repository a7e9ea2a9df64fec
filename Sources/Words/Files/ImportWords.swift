import CameraFacts
import Foundation
import TextKit

/// `import --list` (what is new, nothing fetched) and `import --dry-run` (where each new file would go and
/// the totals, nothing fetched).
public enum ImportWords {
    /// `import: DJI_0001.JPG is home, but its XMP sidecar was not written: ...`.
    public static func noSidecar(_ file: MediaFile, _ error: Error, command: String) -> String {
        "\(command): \(SafeText.display(file.name)) is home, but its XMP sidecar was not written: " + ErrorWords.sentence(for: error)
    }

    /// The new files, one row each (path, size, capture time), then how many and how many were imported before.
    public static func list(_ preview: ImportPreview, dates: DateText) -> [String] {
        let new = preview.items.filter { if case .imported = $0.action { false } else { true } }
        let rows = new.map { item in
            [
                RemotePath.display(item.file.path), HumanReadable.size(item.file.size),
                dates.listing(ShownCaptureTime(time: item.captureTime, pending: false)),
            ]
        }
        let bytes = new.reduce(UInt64(0)) { $0 + $1.file.size }
        return ColumnTable(rows: rows).lines() + [
            "\(count(new.count, "new file")) (\(HumanReadable.size(bytes))); \(preview.alreadyImported) imported before"
        ] + importedElsewhere(preview.importedFromOtherCards)
    }

    /// `412 already imported from Canon EOS R5 031021000123: not fetched`, a line per other card whose
    /// import brought files of this one home (`ImportedElsewhere`): `cards`, with how many files each brought.
    public static func importedElsewhere(_ cards: [(card: String, count: Int)]) -> [String] {
        cards.map { "\($0.count) already imported from \(SafeText.display($0.card)): not fetched" }
    }

    /// Where each new file would go (with `verbose`, what is skipped too), then the totals and, when they do
    /// not fit, `roomProblem` (the free-space check's refusal, made by the caller).
    public static func dryRun(_ preview: ImportPreview, verbose: Bool, roomProblem: (any Error)?) -> [String] {
        var lines: [String] = []
        for item in preview.items {
            let from = RemotePath.display(item.file.path)
            let to = SafeText.display(item.destination)
            switch item.action {
            case .fetch(let part, let overwrite):
                var note = ""
                if overwrite { note = " (replacing a different file, --force)" } else if item.renamed { note = " (a different file has the name)" }
                if part > 0 { note += " (continuing \(HumanReadable.size(part)) kept in .part)" }
                lines.append("\(from) -> \(to)\(note)")
            case .alreadyThere:
                if verbose { lines.append("\(from): already at \(to)") }
            case .imported:
                guard verbose else { break }
                let before = item.importedFrom.map { "imported from \(SafeText.display($0))" } ?? "imported before"
                lines.append("\(from): \(before), to \(to)")
            }
        }
        var line = "would fetch \(count(preview.filesToFetch, "file")) (\(HumanReadable.size(preview.bytesToFetch)))"
        line += "; \(preview.alreadyImported + preview.alreadyThere) skipped as already imported"
        if preview.shift != 0 { line += "; capture times shifted by \(ShiftText.format(preview.shift))" }
        let nonsense = preview.items.filter(\.hasNonsenseDates).count
        if nonsense > 0 { line += "; \(nonsense) with a nonsense date (1970, 1980-01-01, …) placed by the next source" }
        if let roomProblem { line += "; " + ErrorWords.sentence(for: roomProblem) }
        return lines + importedElsewhere(preview.importedFromOtherCards) + [line]
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
