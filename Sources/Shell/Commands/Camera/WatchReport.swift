import Foundation
import MediaManager
import TerminalKit
import Words

/// What `watch` says as it goes: as text, or as one JSON object a line (`--json`) for scripts.
struct WatchReport {
    let shell: any CommandContext
    let json: Bool

    private struct Line: Encodable {
        var event: String
        var path: String?
        var size: UInt64?
        var local: String?
        var error: String?
    }

    private func emit(_ line: Line, text: String) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            shell.output.line((try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) } ?? "{}")
        } else {
            shell.output.line(text)
        }
        shell.output.flush()
    }

    func started(polling: Bool) {
        if polling {
            shell.report("watch: this camera does not announce new files; its newest folders are listed every "
                + "\(Int(NewFileWatch.pollInterval)) s instead", severity: .notice)
        }
        emit(Line(event: "watching"), text: "watching for new files (Ctrl-C ends)")
    }

    func fetchesWhileShooting() {
        shell.report("watch: the camera is in shoot mode: each new file is fetched in download mode, then the "
            + "camera goes back to shoot mode", severity: .notice)
    }

    func unannounced() {
        shell.report("watch: the camera announced no new file; its newest folders are listed every "
            + "\(Int(NewFileWatch.pollInterval)) s to find them", severity: .notice)
    }

    func new(_ file: MediaFile) {
        emit(Line(event: "new", path: "/" + file.path, size: file.size),
             text: "new \(RemotePath.display(file.path)) (\(HumanReadable.size(file.size)))")
    }

    /// The download's own line (`fetched NAME -> PATH`) said it in text; JSON gets an object.
    func fetched(_ local: String) {
        if json { emit(Line(event: "fetched", local: local), text: "") }
    }

    func hookFailed(_ local: String, _ why: String) {
        shell.report("watch: the hook for \(SafeText.display(local)) \(why); watching goes on")
        if json { emit(Line(event: "hook-failed", local: local, error: why), text: "") }
    }

    func lost(_ error: Error) {
        shell.report("watch: the camera went away (\(Interpreter.message(for: error))); waiting for it to come back (Ctrl-C stops)", severity: .notice)
        if json { emit(Line(event: "disconnected", error: Interpreter.message(for: error)), text: "") }
    }

    func back(missed: Int) {
        emit(Line(event: "reconnected"), text: "the camera is back" + (missed > 0 ? "; \(missed) new file\(missed == 1 ? "" : "s") meanwhile" : ""))
    }

    func ended() {
        if !json { shell.output.line("watch: ended") }
    }
}
