import CommandKit
import Foundation
import Import
import MediaManager
import TerminalKit
import Words

/// The words of jobs: the line as typed, what went wrong, how one ended, how one is listed.
public enum JobWords {
    /// One problem of a job that ended: `fetch: NAME: why`, or the download's own sentence when it names the file.
    public static func problem(_ problem: Job.Problem, command: String) -> String {
        switch problem {
        case .failed(let file, let error):
            if case DownloadError.interrupted = error { return "\(command): " + ErrorWords.sentence(for: error) }
            return "\(command): \(SafeText.display(file.name)): " + ErrorWords.sentence(for: error)
        case .notDeleted(let file, let error):
            return "\(command): \(SafeText.display(file.name)) \(command == "import" ? "is home" : "arrived") "
                + "but was not deleted from the camera: " + ErrorWords.sentence(for: error)
        case .noCopy(let file, let destination, let error):
            return "\(command): \(SafeText.display(file.name)): no copy in \(SafeText.display(destination)): "
                + ErrorWords.sentence(for: error)
        case .noSidecar(let file, let error):
            return ImportWords.noSidecar(file, error, command: command)
        case .destinationLeft(let stopped):
            return "\(command): the backup destination \(SafeText.display(stopped.description)); it was left for the rest of the import"
        case .stopped(let error):
            return "\(command): " + ErrorWords.sentence(for: error)
        }
    }

    /// `fetch: 3 fetched, 0 skipped (already here), ...`, or `import: stopped` when the batch had no figures.
    public static func summary(_ ending: Job.Ending) -> String {
        guard let summary = ending.summary else { return "\(ending.command): stopped" }
        let line = BatchWords.summaryLine(summary, command: ending.command)
        return ending.command == "fetch" ? line.replacingOccurrences(of: "(already imported)", with: "(already here)") : line
    }

    /// The line as the user typed it, from its checked words (without the `&`).
    public static func commandLine(_ invocation: Invocation) -> String {
        var words = [invocation.name.text]
        words += invocation.flags.map { "--" + $0.rawValue }.sorted()
        for (option, value) in invocation.values.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            words += ["--" + option.rawValue, ShellEscapedName.quoted(value.text)]
        }
        words += invocation.arguments.map { $0.glob != nil ? $0.text : ShellEscapedName.quoted($0.text) }
        return SafeText.display(words.joined(separator: " "))
    }

    /// `[1] done  fetch *.MP4  (3 fetched, 0 skipped (already here), 0 renamed, 0 failed; 1.0 GB in 4.1 s (250 MB/s))`.
    public static func endLine(_ job: Job, _ ending: Job.Ending) -> String {
        var summary = Substring(Self.summary(ending))
        if let colon = summary.firstIndex(of: ":"), !summary[..<colon].contains(" ") {
            summary = summary[summary.index(after: colon)...].drop { $0 == " " }
        }
        return "[\(job.number)] \(ending.state.rawValue)  \(job.commandLine)  (\(summary))"
    }

    /// `[1] running  fetch *.MP4  3/12 files  240 MB of 1.0 GB  45 MB/s  ETA 0:18  DJI_0042.MP4`.
    public static func listLine(_ job: Job, width: Int) -> String {
        let p = job.progress
        let head = "[\(job.number)] \(job.state.rawValue)  \(job.commandLine)  "
        let figures = BatchProgress(
            filesDone: p.filesDone, filesTotal: p.filesTotal, bytesDone: p.bytesDone, bytesTotal: p.bytesTotal,
            bytesPerSecond: p.bytesPerSecond, elapsed: 0, current: p.current)
        return head + BatchProgressLine.format(figures, width: max(40, width - TerminalWidth.of(head)))
    }
}
