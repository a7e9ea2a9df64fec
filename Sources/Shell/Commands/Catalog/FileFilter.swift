import CommandKit
import Foundation
import Import
import MediaManager
import TerminalKit

extension OptionName {
    static let recursive: OptionName = "recursive"
    static let since: OptionName = "since"
    static let until: OptionName = "until"
    static let kind: OptionName = "kind"
    static let larger: OptionName = "larger"
}

/// The options of `find`, `ls -R` and `du` that filter a card's files (`CardFilter`), and the files they keep.
struct FileFilter {
    var criteria = CardFilter()
    /// Where capture times come from (`--since`, `--until`): the session's one time per file.
    let session: MediaSession

    /// The filter options, shared by the commands that list trees of files.
    static let options: [OptionSpec] = [
        OptionSpec(.since, long: "since", value: ArgumentSpec("DATE", .text), "taken on or after DATE (2024-05-01, yesterday, -2d)"),
        OptionSpec(.until, long: "until", value: ArgumentSpec("DATE", .text), "taken on or before DATE"),
        OptionSpec(.kind, long: "kind", value: ArgumentSpec("KIND", .choice(["photo", "video", "raw"])), "photo, video or raw"),
        OptionSpec(.larger, long: "larger", value: ArgumentSpec("SIZE", .text), "larger than SIZE (500k, 20M, 1G)"),
        OptionSpec(.new, long: "new", "not imported yet (not in the import ledger)"),
    ]

    /// The filter an invocation asks for; `session` gives the ledgers for `--new`.
    init(_ invocation: Invocation, session: MediaSession, environment: [String: String]) throws {
        self.session = session
        if let word = invocation.value(of: .since) { criteria.since = try Self.date(word.text, option: "--since") }
        if let word = invocation.value(of: .until) {
            criteria.until = try Self.date(word.text, option: "--until").addingTimeInterval(word.text.count <= 10 ? 86_400 : 60)
        }
        if let word = invocation.value(of: .kind) {
            guard let kind = CardFilter.Kind(rawValue: word.text) else {
                throw CommandError("--kind takes photo, video or raw, not '\(SafeText.display(word.text))'")
            }
            criteria.kind = kind
        }
        if let word = invocation.value(of: .larger) {
            guard let bytes = ByteCountText.parse(word.text) else {
                throw CommandError("--larger takes a size such as 500k, 20M or 1G, not '\(SafeText.display(word.text))'")
            }
            criteria.larger = bytes
        }
        if invocation.has(.new) {
            criteria.ledgers = try Importer.ledgers(for: session, folder: LedgerLocation.folder(environment: environment))
        }
    }

    /// Filters `entries`, reading the capture times the dates need first (with a progress line).
    func apply(_ entries: [RemoteEntry], shell: any CommandContext) -> [RemoteEntry] {
        guard !criteria.isEmpty else { return entries }
        let kept = entries.filter { $0.file.map { criteria.keeps($0, in: session, timeToo: false) } ?? false }
        guard criteria.needsTimes else { return kept }
        shell.readCaptureTimes(kept.compactMap(\.file), session: session)
        return kept.filter { $0.file.map { criteria.keeps($0, in: session) } ?? false }
    }

    /// The date `text` names (`DayText`), or one clear error naming `option`.
    static func date(_ text: String, option: String, now: Date = Date()) throws -> Date {
        guard let date = DayText.parse(text, now: now) else {
            throw CommandError(
                "\(option) takes a date such as 2024-05-01, 2024-05-01T10:15, today, yesterday or -2d, not '\(SafeText.display(text))'")
        }
        return date
    }
}
