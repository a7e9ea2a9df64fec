import CommandKit
import Foundation
import Import
import MediaFormats
import MediaManager
import TerminalKit

extension OptionName {
    static let recursive: OptionName = "recursive"
    static let since: OptionName = "since"
    static let until: OptionName = "until"
    static let kind: OptionName = "kind"
    static let larger: OptionName = "larger"
}

/// Which files `find`, `ls -R` and `du` keep: taken since or until a date, of a kind, larger than a size,
/// or not imported yet (not in the camera's import ledger).
struct FileFilter {
    var since: Date?
    /// Exclusive: `--until 2024-05-01` keeps that whole day.
    var until: Date?
    var kind: String?
    var larger: UInt64?
    /// Keeps only files the ledger does not have.
    var ledgers: CameraLedgers?
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
        if let word = invocation.value(of: .since) { since = try Self.date(word.text, option: "--since") }
        if let word = invocation.value(of: .until) {
            until = try Self.date(word.text, option: "--until").addingTimeInterval(word.text.count <= 10 ? 86_400 : 60)
        }
        if let word = invocation.value(of: .kind) {
            guard ["photo", "video", "raw"].contains(word.text) else {
                throw CommandError("--kind takes photo, video or raw, not '\(SafeText.display(word.text))'")
            }
            kind = word.text
        }
        if let word = invocation.value(of: .larger) {
            guard let bytes = ByteCountText.parse(word.text) else {
                throw CommandError("--larger takes a size such as 500k, 20M or 1G, not '\(SafeText.display(word.text))'")
            }
            larger = bytes
        }
        if invocation.has(.new) {
            ledgers = try Importer.ledgers(for: session, folder: LedgerLocation.folder(environment: environment))
        }
    }

    var isEmpty: Bool { since == nil && until == nil && kind == nil && larger == nil && ledgers == nil }

    /// True when the filter compares capture times: they are read (`Interpreter.readCaptureTimes`) first.
    var needsTimes: Bool { since != nil || until != nil }

    /// The clock time of a date typed in local time, to compare with capture times as shown (as written
    /// where they were taken).
    static func clock(_ date: Date) -> Double {
        date.timeIntervalSince1970 + Double(TimeZone.current.secondsFromGMT(for: date))
    }

    /// Filters `entries`, reading the capture times the dates need first (with a progress line).
    func apply(_ entries: [RemoteEntry], shell: any CommandContext) -> [RemoteEntry] {
        guard !isEmpty else { return entries }
        let kept = entries.filter { $0.file.map { keeps($0, timeToo: false) } ?? false }
        guard needsTimes else { return kept }
        shell.readCaptureTimes(kept.compactMap(\.file), session: session)
        return kept.filter { $0.file.map { keeps($0) } ?? false }
    }

    func keeps(_ file: MediaFile, timeToo: Bool = true) -> Bool {
        if file.isFolder { return false }
        if timeToo, needsTimes {
            let clock = session.shownCaptureTime(file).time?.clock()
            if let since, (clock ?? -.infinity) < Self.clock(since) { return false }
            if let until, (clock ?? .infinity) >= Self.clock(until) { return false }
        }
        if let larger, file.size <= larger { return false }
        if let kind {
            switch kind {
            case "photo": if ![.jpeg, .heic, .tiff].contains(file.kind) { return false }
            case "video": if ![.mp4, .mov].contains(file.kind) { return false }
            default: if file.kind != .raw { return false }
            }
        }
        if let ledgers, ledgers.entry(for: file) != nil { return false }
        return true
    }

    /// `2024-05-01`, `2024-05-01T10:15` or `2024-05-01 10:15`, in local time; or a day counted from `now`:
    /// `today`, `yesterday`, `-2d` (the start of that day).
    static func date(_ text: String, option: String, now: Date = Date()) throws -> Date {
        let calendar = Calendar.current
        let days: Int? = switch text.lowercased() {
        case "today": 0
        case "yesterday": 1
        default: text.hasPrefix("-") && text.hasSuffix("d") ? Int(text.dropFirst().dropLast()).flatMap { $0 >= 0 ? $0 : nil } : nil
        }
        if let days, let day = calendar.date(byAdding: .day, value: -days, to: calendar.startOfDay(for: now)) {
            return day
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        for format in ["yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        throw CommandError(
            "\(option) takes a date such as 2024-05-01, 2024-05-01T10:15, today, yesterday or -2d, not '\(SafeText.display(text))'")
    }
}

/// The files below folders of the catalog, each with the path it is shown by (relative to where the
/// listing started), depth first in name order.
enum FileTree {
    static func files(under folder: String, shownUnder prefix: String, in catalog: MediaCatalog) -> [RemoteEntry] {
        var result: [RemoteEntry] = []
        var stack: [(path: String, shown: String)] = [(folder, prefix)]
        var seen = Set<String>()
        while let (path, shown) = stack.popLast() {
            guard seen.insert(path).inserted else { continue }
            let children = catalog.contents(of: path) ?? []
            var folders: [(String, String)] = []
            for file in children {
                let child = RemotePath.child(file.name, of: path)
                let childShown = shown + file.name
                if file.isFolder || catalog.isFolder(child) {
                    folders.append((child, childShown + "/"))
                } else {
                    result.append(RemoteEntry(path: child, file: file, isFolder: false, shown: childShown))
                }
            }
            stack += folders.reversed()
        }
        return result
    }
}
