import MediaManager
import POSIX
import TerminalKit
import Words

extension CommandContext {
    /// Reads the capture times of `files` not known yet, with a progress line on a terminal; Ctrl-C stops it.
    func readCaptureTimes(_ files: [MediaFile], session: MediaSession) {
        let interrupt = self.interrupt
        session.readCaptureTimes(files, output: output, cancellation: interrupt.cancellation)
    }
}
