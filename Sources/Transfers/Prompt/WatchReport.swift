import Foundation
import MediaManager
import TerminalKit
import Words

/// What `watch` says as it goes: as text, or as one JSON object a line (`--json`) for scripts.
public struct WatchReport {
    let host: any BatchHost
    let json: Bool

    public init(host: any BatchHost, json: Bool) {
        self.host = host
        self.json = json
    }

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
            host.output.line((try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) } ?? "{}")
        } else {
            host.output.note(text)
        }
        host.output.flush()
    }

    public func started(polling: Bool) {
        if polling {
            host.report("watch: this camera does not announce new files; its newest folders are listed every "
                + "\(Int(NewFileWatch.pollInterval)) s instead", severity: .notice)
        }
        emit(Line(event: "watching"), text: "watching for new files (Ctrl-C ends)")
    }

    public func fetchesWhileShooting() {
        host.report("watch: the camera is in shoot mode: each new file is fetched in download mode, then the "
            + "camera goes back to shoot mode", severity: .notice)
    }

    public func unannounced() {
        host.report("watch: the camera announced no new file; its newest folders are listed every "
            + "\(Int(NewFileWatch.pollInterval)) s to find them", severity: .notice)
    }

    public func new(_ file: MediaFile) {
        emit(Line(event: "new", path: "/" + file.path, size: file.size),
             text: "new \(RemotePath.display(file.path)) (\(HumanReadable.size(file.size)))")
    }

    /// The download's own line (`fetched NAME -> PATH`) said it in text; JSON gets an object.
    public func fetched(_ local: String) {
        if json { emit(Line(event: "fetched", local: local), text: "") }
    }

    public func hookFailed(_ local: String, _ why: String) {
        host.report("watch: the hook for \(SafeText.display(local)) \(why); watching goes on")
        if json { emit(Line(event: "hook-failed", local: local, error: why), text: "") }
    }

    public func lost(_ error: Error) {
        host.report("watch: the camera went away (\(ErrorWords.sentence(for: error))); waiting for it to come back (Ctrl-C stops)", severity: .notice)
        if json { emit(Line(event: "disconnected", error: ErrorWords.sentence(for: error)), text: "") }
    }

    public func back(missed: Int) {
        emit(Line(event: "reconnected"), text: "the camera is back" + (missed > 0 ? "; \(missed) new file\(missed == 1 ? "" : "s") meanwhile" : ""))
    }

    public func ended() {
        if !json { host.output.note("watch: ended") }
    }
}
