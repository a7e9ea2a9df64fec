import Import
import TerminalKit

/// The one progress line of a batch, on a terminal only: `12/120 files  45.2 MB of 1.2 GB  31.4 MB/s  ETA 0:35  DJI_0042.MP4`.
public final class BatchProgressLine {
    private let output: ShellOutput
    private var lastDraw: Double?
    private var shown = false
    public var redrawInterval = 0.1

    public init(output: ShellOutput) { self.output = output }

    /// Draws `p` unless a line was drawn less than `redrawInterval` ago (`force`: draws it anyway).
    public func update(_ p: BatchProgress, at time: Double, force: Bool = false) {
        guard let write = output.progress else { return }
        if !force, let lastDraw, time - lastDraw < redrawInterval { return }
        lastDraw = time
        let width = max(20, (output.terminalColumns ?? 80) - 2)
        write("\r" + Self.format(p, width: width) + "\u{1B}[K")
        shown = true
    }

    public func clear() {
        guard shown, let write = output.progress else { return }
        write("\r\u{1B}[K")
        shown = false
        lastDraw = nil
    }

    public static func format(_ p: BatchProgress, width: Int) -> String {
        var figures = ["\(p.filesDone)/\(p.filesTotal) files", "\(HumanReadable.size(p.bytesDone)) of \(HumanReadable.size(p.bytesTotal))"]
        figures.append(p.bytesPerSecond > 0 ? HumanReadable.rate(bytesPerSecond: p.bytesPerSecond) : "-- B/s")
        figures.append("ETA " + (p.secondsLeft.map { HumanReadable.duration(seconds: $0) } ?? "--:--"))
        let stats = figures.joined(separator: "  ")
        let room = width - TerminalWidth.of(stats) - 2
        guard room >= 4 else { return TerminalWidth.truncate(stats, to: width) }
        return stats + "  " + TerminalWidth.truncate(SafeText.display(p.current), to: room)
    }
}
