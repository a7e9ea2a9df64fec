import MediaManager
import TerminalKit

extension CommandContext {
    /// Reads the capture times of `files` not known yet, with a progress line on a terminal
    /// (`reading capture times 120/10000`); Ctrl-C stops it (the rest show the camera's date).
    func readCaptureTimes(_ files: [MediaFile], session: MediaSession) {
        let write = output.progress
        let interrupt = self.interrupt
        var drew = false
        session.resolveCaptureTimes(
            files,
            progress: { done, total in
                guard let write, total >= 8 else { return }
                write("\r\u{1B}[Kreading capture times \(done)/\(total)")
                drew = true
            }, cancelled: { interrupt.isPending })
        if drew { write?("\r\u{1B}[K") }
    }
}
